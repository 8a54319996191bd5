import { ApiError, ErrorCode } from '@rcs/contracts';
import { POOL_KEY_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, freshTimestamp, headerValue, type RequestHeaders } from './headers';
import { canonicalSs58, cryptoReady, verifySignature } from './signature';

const LEGACY_TIMESTAMP = /^auth:([0-9]+)$/;

/** Message a pool wallet signs for pool-wallet signed routes (compat). */
export function poolAuthMessage(ts: number | string): string {
  return `auth:${ts}`;
}

/** Message a miner signs to set its payout recipient (compat). */
export function recipientUpdateMessage(ts: number | string, coldkey: string): string {
  return `recipient_coldkey:update:${ts}:${coldkey}`;
}

interface PoolHeaders {
  key: string;
  timestamp: string;
  signature: string;
}

/**
 * Verifies a pool-wallet signed request and returns the signer (`X-Key`, canonical SS58), or throws ApiError 401.
 * `X-Timestamp` is unix seconds (message `auth:{ts}`) or, legacy, `auth:{seconds}` itself (the message).
 */
export async function verifyPoolRequest(
  headers: RequestHeaders,
  nowSeconds: number,
  maxSkew: number,
): Promise<string> {
  const { key, timestamp, signature } = poolHeaders(headers);
  const legacy = LEGACY_TIMESTAMP.exec(timestamp);
  const seconds = legacy ? legacy[1] : timestamp;
  assertFresh(seconds, nowSeconds, maxSkew);
  return assertSigned(legacy ? timestamp : poolAuthMessage(timestamp), signature, key);
}

/**
 * Verifies a recipient update: the signature binds the timestamp and the new recipient coldkey.
 * Returns the signer (`X-Key`, canonical SS58), or throws ApiError 401. Check the coldkey with `isValidSs58` first.
 */
export async function verifyRecipientUpdate(
  headers: RequestHeaders,
  recipientColdkey: string,
  nowSeconds: number,
  maxSkew: number,
): Promise<string> {
  const { key, timestamp, signature } = poolHeaders(headers);
  assertFresh(timestamp, nowSeconds, maxSkew);
  return assertSigned(recipientUpdateMessage(timestamp, recipientColdkey), signature, key);
}

function poolHeaders(headers: RequestHeaders): PoolHeaders {
  const key = headerValue(headers, POOL_KEY_HEADER);
  const timestamp = headerValue(headers, TIMESTAMP_HEADER);
  const signature = headerValue(headers, SIGNATURE_HEADER);
  if (key === undefined || timestamp === undefined || signature === undefined) {
    throw ApiError.unauthorized(ErrorCode.MissingSignature, 'Send X-Key, X-Timestamp and X-Signature.');
  }
  return { key, timestamp, signature };
}

function assertFresh(seconds: string, nowSeconds: number, maxSkew: number): void {
  if (freshTimestamp(seconds, nowSeconds, maxSkew) === null) {
    throw ApiError.unauthorized(
      ErrorCode.StaleTimestamp,
      `X-Timestamp must be unix seconds within ${maxSkew} s of the server clock.`,
    );
  }
}

/** The signer in its canonical SS58 spelling (DECISIONS.md §2 Identity), once the signature checks out. */
async function assertSigned(message: string, signature: string, key: string): Promise<string> {
  await cryptoReady();
  const signer = canonicalSs58(key);
  if (signer === null || !verifySignature(message, signature, key)) {
    throw ApiError.unauthorized(ErrorCode.InvalidSignature, 'X-Signature does not sign this request for X-Key.');
  }
  return signer;
}
