import { ApiError, ApiValidationError, ErrorCode } from '@rcs/contracts';
import { headerValue, POOL_KEY_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, type RequestHeaders } from './headers';
import { verifyPoolRequest, verifyRecipientUpdate } from './pool-auth';
import type { ReplayGuardStore } from './replay-guard.store';
import { canonicalSs58, decodePublicKey, decodeSignature } from './signature';
import { markSpent, ONE_TIME_METHODS, useOnce } from './signed-request';

// A signature on a pool POST/PUT is accepted once (DECISIONS.md §2 Pool), like any one-time method's. Reads
// may repeat theirs, but `auth:{ts}` does not bind the method: a signature any read has used is spent for these.

export interface PoolRequestContext {
  method: string;
  headers: RequestHeaders;
  /** Unix seconds now. */
  now: number;
  maxSkewSeconds: number;
  replayGuard: ReplayGuardStore;
}

/**
 * Verifies a pool-wallet signed request (`auth:{ts}`, or the legacy `X-Timestamp: auth:{ts}`), refuses a
 * signature already used (on any method) on state-changing methods, remembers one a read uses, and
 * returns the signer's canonical SS58 (prefix 42).
 */
export async function verifyPoolSignedRequest(ctx: PoolRequestContext): Promise<string> {
  const key = await verifyPoolRequest(ctx.headers, ctx.now, ctx.maxSkewSeconds);
  return rememberAndCanonicalise(ctx, key);
}

/** Where the recipient coldkey of a recipient update is read from, in order (`coldkey_address` is the legacy alias). */
export const RECIPIENT_BODY_FIELDS = ['recipient_coldkey', 'coldkey_address'] as const;

/** The coldkey a recipient-update body carries, exactly as sent, or a 422 when absent or not SS58. */
export function recipientColdkeyOf(body: unknown): string {
  const fields = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const field = RECIPIENT_BODY_FIELDS.find((name) => fields[name] !== undefined && fields[name] !== null);
  if (field === undefined) {
    throw new ApiValidationError([{ type: 'missing', loc: ['body', 'recipient_coldkey'], msg: 'Field required (recipient_coldkey or coldkey_address)' }]);
  }
  const value = fields[field];
  if (typeof value !== 'string') {
    throw new ApiValidationError([{ type: 'string_type', loc: ['body', field], msg: 'Input should be a valid string', input: value }]);
  }
  if (canonicalSs58(value) === null) {
    throw new ApiValidationError([{ type: 'ss58_invalid', loc: ['body', field], msg: 'Value error, not a valid SS58 address', input: value }]);
  }
  return value;
}

/**
 * Verifies a recipient update: the signature covers `recipient_coldkey:update:{ts}:{coldkey}` with the
 * coldkey as the body spells it. Returns the signer and the coldkey, both canonical.
 */
export async function verifyRecipientUpdateRequest(ctx: PoolRequestContext, body: unknown): Promise<{ hotkey: string; coldkey: string }> {
  // Unsigned requests are 401 whatever their body, as on every other signed route.
  if ([POOL_KEY_HEADER, TIMESTAMP_HEADER, SIGNATURE_HEADER].some((name) => headerValue(ctx.headers, name) === undefined)) {
    throw ApiError.unauthorized(ErrorCode.MissingSignature, 'Send X-Key, X-Timestamp and X-Signature.');
  }
  const coldkey = recipientColdkeyOf(body);
  const key = await verifyRecipientUpdate(ctx.headers, coldkey, ctx.now, ctx.maxSkewSeconds);
  return { hotkey: await rememberAndCanonicalise(ctx, key), coldkey: canonicalSs58(coldkey) as string };
}

/** Unix seconds of an already verified `X-Timestamp` (plain, or the legacy `auth:{seconds}` form). */
function signedAtOf(timestamp: string): number {
  return Number(timestamp.startsWith('auth:') ? timestamp.slice('auth:'.length) : timestamp);
}

async function rememberAndCanonicalise(ctx: PoolRequestContext, key: string): Promise<string> {
  const publicKey = decodePublicKey(key);
  const signature = decodeSignature(headerValue(ctx.headers, SIGNATURE_HEADER) ?? '');
  const hotkey = canonicalSs58(key);
  // Verified above, so both decode; the guard keeps the compiler and a future refactor honest.
  if (publicKey === null || signature === null || hotkey === null) {
    throw ApiError.unauthorized(ErrorCode.InvalidSignature, 'X-Signature does not sign this request for X-Key.');
  }
  if (ONE_TIME_METHODS.has(ctx.method.toUpperCase())) {
    const signedAt = signedAtOf(headerValue(ctx.headers, TIMESTAMP_HEADER) ?? '');
    await useOnce(ctx.replayGuard, publicKey, signature, { maxSkewSeconds: ctx.maxSkewSeconds, signedAt, now: ctx.now });
  } else {
    await markSpent(ctx.replayGuard, publicKey, signature, { maxSkewSeconds: ctx.maxSkewSeconds, now: ctx.now });
  }
  return hotkey;
}
