import { accountIdToSs58, MerkleInputError, ss58ToAccountId } from '@rcs/merkle';

/** Whether a text is an SS58 account address, and its canonical spelling (prefix 42, DECISIONS §2 Identity). */
export type HotkeyCheck = { ok: true; canonical: string } | { ok: false; reason: string };

/** Checks an SS58 address of any network prefix (base58, length, checksum) and spells it with prefix 42. */
export function checkHotkey(text: string): HotkeyCheck {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, reason: 'enter a hotkey (an SS58 address)' };
  try {
    return { ok: true, canonical: accountIdToSs58(ss58ToAccountId(trimmed)) };
  } catch (error) {
    if (!(error instanceof MerkleInputError)) throw error;
    if (/checksum/.test(error.message)) return { ok: false, reason: 'not a valid SS58 address: its checksum does not match (a typo?)' };
    if (/base58/.test(error.message)) return { ok: false, reason: 'not a valid SS58 address: it has characters base58 does not use (0, O, I, l, or others)' };
    return { ok: false, reason: 'not a valid SS58 address: wrong length for a 32-byte account' };
  }
}

/** The canonical spelling, or the text as it is when it is no SS58 address. */
export function canonicalHotkey(text: string): string {
  const check = checkHotkey(text);
  return check.ok ? check.canonical : text;
}
