import { u8aToHex } from '@polkadot/util';
import type { KeyringPair } from '@polkadot/keyring/types';
import { encodeAddress } from '@polkadot/util-crypto';
import { ApiError, ErrorCode } from '@rcs/contracts';
import { poolAuthMessage, recipientUpdateMessage, verifyPoolRequest, verifyRecipientUpdate } from './pool-auth';
import { BtAuthSigner, keypairFromUri, type PoolSignedHeaders } from './signer';

const NOW = 1763683200;
const SKEW = 300;

function lowerCase(headers: Partial<PoolSignedHeaders>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

async function codeOf(promise: Promise<unknown>): Promise<[number, string]> {
  const error: unknown = await promise.then(() => undefined, (e: unknown) => e);
  if (!(error instanceof ApiError)) throw new TypeError(`expected an ApiError, got ${String(error)}`);
  return [error.status, error.code];
}

describe('pool authentication', () => {
  let pair: KeyringPair;
  let signer: BtAuthSigner;
  let coldkey: string;

  beforeAll(async () => {
    pair = await keypairFromUri('//Bob');
    signer = new BtAuthSigner(pair);
    coldkey = (await keypairFromUri('//Bob//stash')).address;
  });

  it('builds the compat messages', () => {
    expect(poolAuthMessage(NOW)).toBe('auth:1763683200');
    expect(recipientUpdateMessage('1763683200', coldkey)).toBe(`recipient_coldkey:update:1763683200:${coldkey}`);
  });

  it('accepts a pool-wallet signature over auth:{ts} and returns the signer', async () => {
    await expect(verifyPoolRequest(lowerCase(signer.signPool(NOW)), NOW, SKEW)).resolves.toBe(pair.address);
  });

  it('returns the signer in the canonical SS58 spelling whatever prefix X-Key uses', async () => {
    const headers = { ...signer.signPool(NOW), 'X-Key': encodeAddress(pair.publicKey, 2) };
    await expect(verifyPoolRequest(lowerCase(headers), NOW, SKEW)).resolves.toBe(pair.address);
    const update = { ...signer.signRecipientUpdate(NOW, coldkey), 'X-Key': encodeAddress(pair.publicKey, 7) };
    await expect(verifyRecipientUpdate(lowerCase(update), coldkey, NOW, SKEW)).resolves.toBe(pair.address);
  });

  it('accepts the legacy form where X-Timestamp is auth:{seconds} itself', async () => {
    const headers = { 'x-key': pair.address, 'x-timestamp': `auth:${NOW}`, 'x-signature': u8aToHex(pair.sign(`auth:${NOW}`)) };
    await expect(verifyPoolRequest(headers, NOW + 10, SKEW)).resolves.toBe(pair.address);
  });

  it('refuses stale timestamps in both forms', async () => {
    expect(await codeOf(verifyPoolRequest(lowerCase(signer.signPool(NOW - SKEW - 1)), NOW, SKEW))).toEqual([
      401,
      ErrorCode.StaleTimestamp,
    ]);
    const legacy = { 'x-key': pair.address, 'x-timestamp': `auth:${NOW + SKEW + 1}`, 'x-signature': '00' };
    expect(await codeOf(verifyPoolRequest(legacy, NOW, SKEW))).toEqual([401, ErrorCode.StaleTimestamp]);
  });

  it('refuses missing headers and wrong signatures', async () => {
    const headers = lowerCase(signer.signPool(NOW));
    expect(await codeOf(verifyPoolRequest({ ...headers, 'x-key': undefined }, NOW, SKEW))).toEqual([
      401,
      ErrorCode.MissingSignature,
    ]);
    const other = (await keypairFromUri('//Charlie')).address;
    expect(await codeOf(verifyPoolRequest({ ...headers, 'x-key': other }, NOW, SKEW))).toEqual([
      401,
      ErrorCode.InvalidSignature,
    ]);
  });

  it('binds a recipient update to its timestamp and coldkey', async () => {
    const headers = lowerCase(signer.signRecipientUpdate(NOW, coldkey));
    await expect(verifyRecipientUpdate(headers, coldkey, NOW, SKEW)).resolves.toBe(pair.address);
    expect(await codeOf(verifyRecipientUpdate(headers, pair.address, NOW, SKEW))).toEqual([
      401,
      ErrorCode.InvalidSignature,
    ]);
    // A plain pool signature is not a recipient update.
    expect(await codeOf(verifyRecipientUpdate(lowerCase(signer.signPool(NOW)), coldkey, NOW, SKEW))).toEqual([
      401,
      ErrorCode.InvalidSignature,
    ]);
  });
});
