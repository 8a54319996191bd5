import { ApiError, ErrorCode } from '@rcs/contracts';
import { decodeAddress, encodeAddress } from '@polkadot/util-crypto';
import type { Redis } from 'ioredis';
import { deleteKeys, testRedis, uniquePrefix } from '../test/redis';
import { ReplayGuardStore } from './replay-guard.store';
import { verifySignedRequest, type SignedRequest } from './signed-request';
import { BtAuthSigner, keypairFromUri, type SignedHeaders } from './signer';

const NOW = 1763683200;
const SKEW = 300;
const BODY = '{"claim_description": "d\\u00e9j\\u00e0 vu", "n": 254.0}';

describe('verifySignedRequest (real Redis)', () => {
  const prefix = uniquePrefix('signed-request');
  let redis: Redis;
  let replayGuard: ReplayGuardStore;
  let signer: BtAuthSigner;

  beforeAll(async () => {
    redis = testRedis(process.env.REDIS_URL);
    replayGuard = new ReplayGuardStore(redis, prefix);
    // The store holds every signature used since before the oldest timestamp these tests sign.
    await replayGuard.markStart(NOW - SKEW);
    signer = new BtAuthSigner(await keypairFromUri('//Alice'));
  });

  afterAll(async () => {
    await deleteKeys(redis, prefix);
    await redis.quit();
  });

  function request(headers: Partial<SignedHeaders>, overrides: Partial<SignedRequest> = {}): SignedRequest {
    return {
      method: 'POST',
      url: '/api/v1/tasks/t-1/claim?dry=1',
      headers: lowerCase(headers),
      rawBody: BODY,
      now: NOW,
      maxSkewSeconds: SKEW,
      replayGuard,
      ...overrides,
    };
  }

  function sign(overrides: { method?: string; url?: string; body?: string; timestamp?: number } = {}): SignedHeaders {
    return signer.signRequest({ method: 'POST', url: '/api/v1/tasks/t-1/claim?dry=1', body: BODY, timestamp: NOW, ...overrides });
  }

  async function errorOf(promise: Promise<unknown>): Promise<ApiError> {
    const error: unknown = await promise.then(() => undefined, (e: unknown) => e);
    if (!(error instanceof ApiError)) throw new TypeError(`expected an ApiError, got ${String(error)}`);
    return error;
  }

  it('accepts a signed request once and refuses its replay', async () => {
    const headers = sign();
    await expect(verifySignedRequest(request(headers))).resolves.toEqual({ hotkey: signer.hotkey });
    const replay = await errorOf(verifySignedRequest(request(headers)));
    expect([replay.status, replay.code]).toEqual([401, ErrorCode.ReplayedSignature]);
  });

  it('returns the signer in the canonical SS58 spelling (prefix 42) whatever prefix X-Hotkey uses', async () => {
    for (const prefix of [0, 2, 7]) {
      const headers = sign();
      const respelled = { ...headers, 'X-Hotkey': encodeAddress(decodeAddress(headers['X-Hotkey']), prefix) };
      await expect(verifySignedRequest(request(respelled))).resolves.toEqual({ hotkey: signer.hotkey });
    }
  });

  it('remembers key and signature bytes, not their spelling', async () => {
    const headers = sign();
    await verifySignedRequest(request(headers));
    const upperHex = { ...headers, 'X-Signature': headers['X-Signature'].slice(2).toUpperCase() };
    const otherSs58 = { ...headers, 'X-Hotkey': encodeAddress(decodeAddress(headers['X-Hotkey']), 0) };
    for (const respelled of [upperHex, otherSs58]) {
      expect((await errorOf(verifySignedRequest(request(respelled)))).code).toBe(ErrorCode.ReplayedSignature);
    }
  });

  it('keeps a used signature for 2 × skew + 1 seconds, as long as its timestamp can stay fresh', async () => {
    const headers = sign();
    await verifySignedRequest(request(headers));
    const keys = await redis.keys(`${prefix}*${headers['X-Signature'].slice(2)}`);
    expect(keys).toHaveLength(1);
    const ttl = await redis.ttl(keys[0]);
    expect(ttl).toBeGreaterThan(2 * SKEW - 4);
    expect(ttl).toBeLessThanOrEqual(2 * SKEW + 1);
    // Redis rounds the TTL down: only a window over 2 × skew can read 2 × skew + 1 within its first second.
    expect(await redis.pttl(keys[0])).toBeGreaterThan(2 * SKEW * 1000);
  });

  it('refuses, once the store was emptied, signatures timestamped before it was found empty', async () => {
    const earlier = sign({ timestamp: NOW - 5 });
    await verifySignedRequest(request(earlier));
    // A Redis that restarts empty: every nonce and the store's start are gone.
    await deleteKeys(redis, prefix);
    const replay = await errorOf(verifySignedRequest(request(earlier)));
    expect([replay.status, replay.code]).toEqual([401, ErrorCode.StaleTimestamp]);
    expect(await replayGuard.start()).toBe(NOW);
    // Signed after the store was found empty: accepted once, as always.
    const fresh = sign({ timestamp: NOW });
    await expect(verifySignedRequest(request(fresh))).resolves.toEqual({ hotkey: signer.hotkey });
    expect((await errorOf(verifySignedRequest(request(fresh)))).code).toBe(ErrorCode.ReplayedSignature);
    // Back to a store that covers the whole window, for the other tests.
    await deleteKeys(redis, prefix);
    await replayGuard.markStart(NOW - SKEW);
  });

  it('marks the start of an empty store when its connection becomes ready', async () => {
    const watched = new ReplayGuardStore(redis, `${prefix}watch:`);
    const errors: Error[] = [];
    const stop = watched.watch(() => NOW + 7, (error) => errors.push(error));
    try {
      await waitFor(async () => (await watched.start()) !== null);
      expect(await watched.start()).toBe(NOW + 7);
      // Already marked: a reconnect keeps the earlier start.
      expect(await watched.markStart(NOW + 9)).toBe(false);
      expect(errors).toEqual([]);
    } finally {
      stop();
    }
  });

  it('does not spend signatures of GET requests', async () => {
    const headers = signer.signRequest({ method: 'GET', url: '/api/v1/submissions?limit=5', timestamp: NOW });
    const get = request(headers, { method: 'GET', url: '/api/v1/submissions?limit=5', rawBody: undefined });
    await verifySignedRequest(get);
    await expect(verifySignedRequest(get)).resolves.toEqual({ hotkey: signer.hotkey });
  });

  it.each([
    ['method', { method: 'PUT' }],
    ['path', { url: '/api/v1/tasks/t-2/claim?dry=1' }],
    ['query', { url: '/api/v1/tasks/t-1/claim?dry=2' }],
    ['body', { rawBody: '{"claim_description": "other"}' }],
  ] as const)('refuses the signature when the %s changes', async (_what, change) => {
    const error = await errorOf(verifySignedRequest(request(sign(), change)));
    expect([error.status, error.code]).toEqual([401, ErrorCode.InvalidSignature]);
  });

  it('refuses the signature when the timestamp header changes', async () => {
    const headers = { ...sign(), 'X-Timestamp': String(NOW + 1) };
    expect((await errorOf(verifySignedRequest(request(headers)))).code).toBe(ErrorCode.InvalidSignature);
  });

  it('accepts the same JSON written differently, since the canonical form is signed', async () => {
    const headers = sign();
    const respaced = '{ "n" : 254.0 , "claim_description" : "d\u00e9j\u00e0 vu" }';
    await expect(verifySignedRequest(request(headers, { rawBody: respaced }))).resolves.toEqual({
      hotkey: signer.hotkey,
    });
  });

  it.each([NOW - SKEW - 1, NOW + SKEW + 1])('refuses timestamp %d as stale', async (timestamp) => {
    const error = await errorOf(verifySignedRequest(request(sign({ timestamp }))));
    expect([error.status, error.code]).toEqual([401, ErrorCode.StaleTimestamp]);
  });

  it('accepts timestamps at the edge of the skew', async () => {
    await expect(verifySignedRequest(request(sign({ timestamp: NOW - SKEW })))).resolves.toBeDefined();
    await expect(verifySignedRequest(request(sign({ timestamp: NOW + SKEW })))).resolves.toBeDefined();
  });

  it.each(['1763683200.0', '-1763683200', ' 1763683200', '2025-11-21T00:00:00Z'])(
    'refuses timestamp %p that is not decimal digits',
    async (timestamp) => {
      const error = await errorOf(verifySignedRequest(request({ ...sign(), 'X-Timestamp': timestamp })));
      expect(error.code).toBe(ErrorCode.StaleTimestamp);
    },
  );

  it.each(['X-Hotkey', 'X-Timestamp', 'X-Signature'] as const)('answers missing_signature without %s', async (name) => {
    const headers: Partial<SignedHeaders> = sign();
    delete headers[name];
    const error = await errorOf(verifySignedRequest(request(headers)));
    expect([error.status, error.code]).toEqual([401, ErrorCode.MissingSignature]);
  });

  it('answers malformed_body when a signed body is not JSON', async () => {
    const error = await errorOf(verifySignedRequest(request(sign(), { rawBody: 'claim=1' })));
    expect([error.status, error.code]).toEqual([400, ErrorCode.MalformedBody]);
  });

  it('answers invalid_signature for garbage signatures and addresses', async () => {
    const headers = sign();
    for (const bad of [{ 'X-Signature': 'zz' }, { 'X-Hotkey': 'nope' }]) {
      expect((await errorOf(verifySignedRequest(request({ ...headers, ...bad })))).code).toBe(
        ErrorCode.InvalidSignature,
      );
    }
  });
});

function lowerCase(headers: Partial<SignedHeaders>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}
