import { ApiError, ErrorCode } from '@rcs/contracts';

/** 503 before any signature work: a deployment without validators is misconfigured whoever asks. */
export function assertAllowlistConfigured(allowlist: readonly unknown[]): void {
  if (allowlist.length === 0) {
    throw ApiError.unavailable(ErrorCode.ValidatorAllowlistUnconfigured, 'No validator hotkeys are configured on this service.');
  }
}

/** 403 unless the canonical signer is on the allowlist (given canonical too). */
export function assertAllowlisted(canonicalAllowlist: readonly (string | null)[], hotkey: string): void {
  if (!canonicalAllowlist.includes(hotkey)) {
    throw ApiError.forbidden(ErrorCode.ValidatorNotAllowlisted, 'This hotkey is not on the validator allowlist.', { hotkey });
  }
}
