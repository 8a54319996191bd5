import { encodeAddress } from '@polkadot/util-crypto';
import { ApiError, ApiValidationError, ErrorCode } from '@rcs/contracts';
import type { Redis } from 'ioredis';
import { deleteKeys, testRedis, uniquePrefix } from '../test/redis';
import { poolAuthMessage } from './pool-auth';
import { recipientColdkeyOf, verifyPoolSignedRequest, verifyRecipientUpdateRequest, type PoolRequestContext } from './pool-signed-request';
import { ReplayGuardStore } from './replay-guard.store';
import { BtAuthSigner, keypairFromUri } from './signer';

const NOW = 1_763_683_200;

describe('pool-wallet verification with one-time signatures (DECISIONS.md §2 Pool)', () => {
  const prefix = uniquePrefix('pool');
  let redis: Redis;
  let guard: ReplayGuardStore;
  let miner: BtAuthSigner;
  let coldkey: string;

  const ctx = (method: string, headers: Record<string, string>): PoolRequestContext => ({
    method,
    headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
    now: NOW,
    maxSkewSeconds: 300,
    replayGuard: guard,
  });
  const codeOf = async (promise: Promise<unknown>): Promise<string> => {
    try {
      await promise;
      return 'ok';
    } catch (error) {
      if (error instanceof ApiError) return error.code;
      if (error instanceof ApiValidationError) return `422:${error.items[0].type}`;
      throw error;
    }
  };

  beforeAll(async () => {
    redis = testRedis(process.env.REDIS_URL);
    guard = new ReplayGuardStore(redis, prefix);
    miner = new BtAuthSigner(await keypairFromUri('//PoolAuth//miner'));
    coldkey = (await keypairFromUri('//PoolAuth//cold')).address;
  });

  afterAll(async () => {
    await deleteKeys(redis, prefix);
    await redis.quit();
  });

  it('returns the canonical signer for any SS58 spelling of X-Key', async () => {
    const headers = { ...miner.signPool(NOW), 'X-Key': encodeAddress(miner.hotkey, 2) };
    expect(await verifyPoolSignedRequest(ctx('GET', headers))).toBe(miner.hotkey);
  });

  it('accepts a POST signature once, a GET signature any number of times', async () => {
    const post = { ...miner.signPool(NOW) };
    expect(await codeOf(verifyPoolSignedRequest(ctx('POST', post)))).toBe('ok');
    expect(await codeOf(verifyPoolSignedRequest(ctx('PUT', post)))).toBe(ErrorCode.ReplayedSignature);
    const get = { ...miner.signPool(NOW) };
    expect(await codeOf(verifyPoolSignedRequest(ctx('GET', get)))).toBe('ok');
    expect(await codeOf(verifyPoolSignedRequest(ctx('GET', get)))).toBe('ok');
  });

  it('spends a signature a GET used for every later POST/PUT (the message does not bind the method), in any spelling', async () => {
    const read = { ...miner.signPool(NOW) };
    expect(await codeOf(verifyPoolSignedRequest(ctx('GET', read)))).toBe('ok');
    expect(await codeOf(verifyPoolSignedRequest(ctx('POST', read)))).toBe(ErrorCode.ReplayedSignature);
    expect(await codeOf(verifyPoolSignedRequest(ctx('PUT', { ...read, 'X-Key': encodeAddress(miner.hotkey, 2) })))).toBe(ErrorCode.ReplayedSignature);
    expect(await codeOf(verifyPoolSignedRequest(ctx('HEAD', { ...miner.signPool(NOW) })))).toBe('ok');
    // A legacy-form read spends the same signature bytes for the plain form.
    const signature = miner.signPool(NOW)['X-Signature'];
    expect(await codeOf(verifyPoolSignedRequest(ctx('GET', { 'X-Key': miner.hotkey, 'X-Timestamp': poolAuthMessage(NOW), 'X-Signature': signature })))).toBe('ok');
    expect(await codeOf(verifyPoolSignedRequest(ctx('POST', { 'X-Key': miner.hotkey, 'X-Timestamp': String(NOW), 'X-Signature': signature })))).toBe(
      ErrorCode.ReplayedSignature,
    );
  });

  it('accepts the legacy `X-Timestamp: auth:{ts}` and refuses stale, missing and foreign signatures', async () => {
    const legacy = { 'X-Key': miner.hotkey, 'X-Timestamp': poolAuthMessage(NOW), 'X-Signature': miner.signPool(NOW)['X-Signature'] };
    expect(await codeOf(verifyPoolSignedRequest(ctx('POST', legacy)))).toBe('ok');
    expect(await codeOf(verifyPoolSignedRequest(ctx('POST', { ...miner.signPool(NOW - 301) })))).toBe(ErrorCode.StaleTimestamp);
    expect(await codeOf(verifyPoolSignedRequest(ctx('POST', { 'X-Key': miner.hotkey })))).toBe(ErrorCode.MissingSignature);
    expect(await codeOf(verifyPoolSignedRequest(ctx('POST', { ...miner.signPool(NOW), 'X-Key': coldkey })))).toBe(ErrorCode.InvalidSignature);
  });

  it('binds a recipient update to the coldkey as written in the body, and stores it canonical', async () => {
    const spelled = encodeAddress(coldkey, 0);
    const headers = { ...miner.signRecipientUpdate(NOW, spelled) };
    expect(await verifyRecipientUpdateRequest(ctx('PUT', headers), { coldkey_address: spelled })).toEqual({ hotkey: miner.hotkey, coldkey });
    const other = { ...miner.signRecipientUpdate(NOW, spelled) };
    expect(await codeOf(verifyRecipientUpdateRequest(ctx('PUT', other), { recipient_coldkey: coldkey }))).toBe(ErrorCode.InvalidSignature);
    expect(await codeOf(verifyRecipientUpdateRequest(ctx('PUT', {}), { recipient_coldkey: 'x' }))).toBe(ErrorCode.MissingSignature);
  });

  it('reads recipient_coldkey before the legacy coldkey_address and refuses what is not SS58 with 422', () => {
    expect(recipientColdkeyOf({ recipient_coldkey: coldkey, coldkey_address: 'ignored' })).toBe(coldkey);
    expect(() => recipientColdkeyOf({})).toThrow(ApiValidationError);
    expect(() => recipientColdkeyOf({ recipient_coldkey: '0x1234' })).toThrow(ApiValidationError);
    expect(() => recipientColdkeyOf({ recipient_coldkey: 7 })).toThrow(ApiValidationError);
    expect(() => recipientColdkeyOf(['x'])).toThrow(ApiValidationError);
  });
});
