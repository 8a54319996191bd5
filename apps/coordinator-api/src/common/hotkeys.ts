import { canonicalSs58 } from '@rcs/auth';

/**
 * The form a hotkey filter compares with stored hotkeys: any SS58 spelling of a key finds that key's
 * rows, which are stored canonical (DECISIONS.md §2 Identity); a value that is no SS58 address is kept
 * as sent (it matches only the non-address values the coordinator itself writes, like `coordinator`).
 */
export function storedHotkey(filter: string): string;
export function storedHotkey(filter: string | undefined): string | undefined;
export function storedHotkey(filter: string | undefined): string | undefined {
  return filter === undefined ? undefined : (canonicalSs58(filter) ?? filter);
}
