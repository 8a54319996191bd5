import { u8aToHex } from '@polkadot/util';
import { encodeAddress } from '@polkadot/util-crypto';
import { Keyring } from '@polkadot/keyring';
import type { KeyringPair } from '@polkadot/keyring/types';
import { canonicalBody } from './canonical-body';
import { buildMessage } from './message';
import { cryptoReady, decodeSignature, isValidSs58, verifySignature, canonicalSs58 } from './signature';
import { BtAuthSigner, keypairFromUri, SignerKeyTypeError } from './signer';

const DEV_MNEMONIC = 'bottom drive obey lake curtain smoke basket hold race lonely fit walk';

describe('sr25519 signatures', () => {
  let alice: KeyringPair;
  let fromMnemonic: KeyringPair;

  beforeAll(async () => {
    await cryptoReady();
    alice = await keypairFromUri('//Alice');
    fromMnemonic = await keypairFromUri(`${DEV_MNEMONIC}//miner/1`);
  });

  const message = buildMessage({
    method: 'POST',
    path: '/api/v1/submissions',
    query: '',
    timestamp: '1763683201',
    canonicalBody: canonicalBody('{"b": 1, "a": 2}'),
  });

  it('verifies raw signatures from a URI key and a mnemonic key', () => {
    for (const pair of [alice, fromMnemonic]) {
      expect(verifySignature(message, u8aToHex(pair.sign(message)), pair.address)).toBe(true);
    }
  });

  it('verifies <Bytes>-wrapped signatures, as polkadot.js extensions make them', () => {
    const wrapped = u8aToHex(alice.sign(`<Bytes>${message}</Bytes>`));
    expect(verifySignature(message, wrapped, alice.address)).toBe(true);
  });

  it('accepts hex without 0x, in either case, bytes as the message, and any SS58 prefix', () => {
    const hex = u8aToHex(alice.sign(message)).slice(2);
    expect(verifySignature(message, hex.toUpperCase(), alice.address)).toBe(true);
    expect(verifySignature(Buffer.from(message), hex, encodeAddress(alice.publicKey, 0))).toBe(true);
  });

  it('refuses another key, another message and malformed input without throwing', () => {
    const sig = u8aToHex(alice.sign(message));
    expect(verifySignature(message, sig, fromMnemonic.address)).toBe(false);
    expect(verifySignature(`${message} `, sig, alice.address)).toBe(false);
    expect(verifySignature(message, sig.slice(0, -2), alice.address)).toBe(false);
    expect(verifySignature(message, `${sig}00`, alice.address)).toBe(false);
    expect(verifySignature(message, `0x${'zz'.repeat(64)}`, alice.address)).toBe(false);
    expect(verifySignature(message, `0x${'00'.repeat(64)}`, alice.address)).toBe(false);
    expect(verifySignature(message, `0x${'ff'.repeat(64)}`, alice.address)).toBe(false);
    expect(verifySignature(message, sig, 'not-an-address')).toBe(false);
    expect(verifySignature(message, sig, `${alice.address.slice(0, -1)}x`)).toBe(false);
    expect(verifySignature(message, sig, u8aToHex(alice.publicKey))).toBe(false);
    expect(verifySignature(message, sig, '')).toBe(false);
  });

  it('decodes signatures of exactly 64 bytes only', () => {
    expect(decodeSignature(`0x${'ab'.repeat(64)}`)).toHaveLength(64);
    expect(decodeSignature('ab'.repeat(63))).toBeNull();
    expect(decodeSignature(`0X${'ab'.repeat(64)}`)).toBeNull();
  });

  it('validates SS58 account addresses', () => {
    expect(isValidSs58(alice.address)).toBe(true);
    expect(isValidSs58(encodeAddress(alice.publicKey, 2))).toBe(true);
    expect(isValidSs58(encodeAddress(new Uint8Array([1, 2]), 42))).toBe(false);
    expect(isValidSs58('5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQ')).toBe(false);
    expect(isValidSs58('0xd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d')).toBe(false);
  });

  describe('BtAuthSigner', () => {
    it('signs the canonical form of the body it is given', () => {
      const signer = new BtAuthSigner(alice);
      const body = '{"b": 1, "a": 2}';
      const headers = signer.signRequest({ method: 'post', url: '/api/v1/submissions', body, timestamp: 1763683201 });
      expect(headers['X-Hotkey']).toBe(alice.address);
      expect(headers['X-Timestamp']).toBe('1763683201');
      expect(verifySignature(message, headers['X-Signature'], headers['X-Hotkey'])).toBe(true);
    });

    it('signs path and query separately and stamps the current time by default', () => {
      const signer = new BtAuthSigner(fromMnemonic);
      const before = Math.floor(Date.now() / 1000);
      const headers = signer.signRequest({ method: 'GET', url: '/api/v1/submissions?limit=5&offset=0' });
      const ts = Number(headers['X-Timestamp']);
      expect(ts).toBeGreaterThanOrEqual(before);
      const expected = buildMessage({
        method: 'GET',
        path: '/api/v1/submissions',
        query: 'limit=5&offset=0',
        timestamp: headers['X-Timestamp'],
        canonicalBody: '',
      });
      expect(verifySignature(expected, headers['X-Signature'], fromMnemonic.address)).toBe(true);
    });

    it('refuses a key that is not sr25519', () => {
      const ed = new Keyring({ type: 'ed25519' }).addFromUri('//Alice');
      expect(() => new BtAuthSigner(ed)).toThrow(SignerKeyTypeError);
    });
  });
});

describe('canonicalSs58', () => {
  // One key (//Alice's public key) spelled with prefixes 42, 0 and 7.
  const alice42 = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
  const alicePolkadot = '15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5';

  it('writes every spelling of one key with prefix 42', () => {
    expect(canonicalSs58(alice42)).toBe(alice42);
    expect(canonicalSs58(alicePolkadot)).toBe(alice42);
  });

  it('refuses what is not an SS58 address of a 32-byte key', () => {
    expect(canonicalSs58('not-an-address')).toBeNull();
    expect(canonicalSs58('0x' + 'ab'.repeat(32))).toBeNull();
    expect(canonicalSs58(alice42.slice(0, -1) + 'Z')).toBeNull();
  });
});
