import { ApiError, ErrorCode } from '@rcs/contracts';

/** Who a guarded request acts as: a verified hotkey, or an operator holding an admin token. */
export type AuthPrincipal = { kind: 'hotkey'; hotkey: string } | { kind: 'admin' };

/** What the signed-only guards (`@Signed()`, `@StakeGated()`, `@Validator()`) admit: a signing hotkey, never an admin token. */
export type HotkeyPrincipal = Extract<AuthPrincipal, { kind: 'hotkey' }>;

/** Lets the owner hotkey (or an admin) through; anyone else gets 403 with `code`. */
export function assertOwner(
  principal: AuthPrincipal,
  ownerHotkey: string,
  code: ErrorCode.NotClaimOwner | ErrorCode.NotSubmissionOwner,
): void {
  if (principal.kind === 'admin' || principal.hotkey === ownerHotkey) return;
  const what = code === ErrorCode.NotClaimOwner ? 'claim' : 'submission';
  throw ApiError.forbidden(code, `Only the hotkey that owns this ${what} may do this.`);
}
