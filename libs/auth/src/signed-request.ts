import { ApiError, ErrorCode } from '@rcs/contracts';
import { CanonicalBodyError, canonicalBody } from './canonical-body';
import { HOTKEY_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, freshTimestamp, headerValue, type RequestHeaders } from './headers';
import { buildMessage, splitUrl } from './message';
import type { ReplayGuardStore } from './replay-guard.store';
import { cryptoReady, decodePublicKey, decodeSignature, ss58OfPublicKey, verifyDecoded } from './signature';

/** Methods that change state accept a signature once (BT-AUTH-V1 and the pool's); PATCH joins the three DECISIONS names. */
export const ONE_TIME_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface SignedRequest {
  method: string;
  /** Raw request URL as the client sent it (Fastify `request.originalUrl`): path and query. */
  url: string;
  headers: RequestHeaders;
  /** Raw body text; undefined or `''` when the request has none. */
  rawBody: string | Buffer | undefined;
  /** Current unix time in seconds. */
  now: number;
  maxSkewSeconds: number;
  replayGuard: ReplayGuardStore;
}

/**
 * Verifies a BT-AUTH-V1 request (DECISIONS.md §2) and returns its signer in the canonical SS58 spelling
 * (prefix 42, §2 Identity: `X-Hotkey` may use any prefix), or throws ApiError.
 */
export async function verifySignedRequest(req: SignedRequest): Promise<{ hotkey: string }> {
  const hotkey = headerValue(req.headers, HOTKEY_HEADER);
  const timestamp = headerValue(req.headers, TIMESTAMP_HEADER);
  const signature = headerValue(req.headers, SIGNATURE_HEADER);
  if (hotkey === undefined || timestamp === undefined || signature === undefined) {
    throw ApiError.unauthorized(
      ErrorCode.MissingSignature,
      'Signed route: send X-Hotkey, X-Timestamp and X-Signature (BT-AUTH-V1).',
    );
  }
  const signedAt = freshTimestamp(timestamp, req.now, req.maxSkewSeconds);
  if (signedAt === null) {
    throw ApiError.unauthorized(
      ErrorCode.StaleTimestamp,
      `X-Timestamp must be unix seconds within ${req.maxSkewSeconds} s of the server clock.`,
    );
  }
  const method = req.method.toUpperCase();
  const { path, query } = splitUrl(req.url);
  const message = buildMessage({ method, path, query, timestamp, canonicalBody: bodyOf(req.rawBody) });

  const sig = decodeSignature(signature);
  const publicKey = decodePublicKey(hotkey);
  await cryptoReady();
  if (sig === null || publicKey === null || !verifyDecoded(message, sig, publicKey)) {
    throw ApiError.unauthorized(ErrorCode.InvalidSignature, 'X-Signature does not sign this request for X-Hotkey.');
  }
  if (ONE_TIME_METHODS.has(method)) {
    await useOnce(req.replayGuard, publicKey, sig, { maxSkewSeconds: req.maxSkewSeconds, signedAt, now: req.now });
  }
  return { hotkey: ss58OfPublicKey(publicKey) };
}

/**
 * Accepts a verified signature once (DECISIONS.md §2): remembered by key and signature bytes (one key
 * has many SS58 spellings, one signature many hex spellings) for the replay window; a reuse, or a
 * signature timestamped before the store was found empty, is a 401.
 */
export async function useOnce(
  replayGuard: ReplayGuardStore,
  publicKey: Uint8Array,
  signature: Uint8Array,
  at: { maxSkewSeconds: number; signedAt: number; now: number },
): Promise<void> {
  const verdict = await replayGuard.rememberOnce(
    Buffer.from(publicKey).toString('hex'),
    Buffer.from(signature).toString('hex'),
    replayWindowSeconds(at.maxSkewSeconds),
    at.signedAt,
    at.now,
  );
  switch (verdict) {
    case 'accepted':
      return;
    case 'replayed':
      throw ApiError.unauthorized(ErrorCode.ReplayedSignature, 'This signature was already used; sign the request again.');
    case 'predates_store':
      throw ApiError.unauthorized(
        ErrorCode.StaleTimestamp,
        'X-Timestamp is older than the signature store (it was reset); sign the request again with the current time.',
      );
  }
}

/**
 * Remembers a verified signature of a request that may repeat it (a read), for the replay window, so
 * that `useOnce` refuses it afterwards: where the signed message does not bind the method (the pool's
 * `auth:{ts}`), a signature seen on a read must never later authorise a write.
 */
export async function markSpent(replayGuard: ReplayGuardStore, publicKey: Uint8Array, signature: Uint8Array, at: { maxSkewSeconds: number; now: number }): Promise<void> {
  await replayGuard.remember(
    Buffer.from(publicKey).toString('hex'),
    Buffer.from(signature).toString('hex'),
    replayWindowSeconds(at.maxSkewSeconds),
    at.now,
  );
}

/**
 * How long an accepted signature is remembered: a timestamp stays fresh for 2 × skew + 1 seconds
 * (±skew around a server clock rounded down to whole seconds), so it is never fresh and forgotten at once.
 */
export function replayWindowSeconds(maxSkewSeconds: number): number {
  return 2 * maxSkewSeconds + 1;
}

function bodyOf(rawBody: string | Buffer | undefined): string {
  try {
    return canonicalBody(rawBody);
  } catch (error) {
    if (error instanceof CanonicalBodyError) {
      throw new ApiError(ErrorCode.MalformedBody, `Request body is not valid JSON: ${error.message}.`);
    }
    throw error;
  }
}
