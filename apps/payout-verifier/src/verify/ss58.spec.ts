import { randomBytes } from 'node:crypto';
import { encodeAddress } from '@polkadot/util-crypto';
import { canonicalSs58, cryptoReady, decodePublicKey } from '@rcs/auth';
import { canonicalAccountId, canonicalSpelling, publicKeyOf } from './ss58';

describe('the verifier’s SS58 reader', () => {
  const keys = Array.from({ length: 200 }, () => new Uint8Array(randomBytes(32)));

  it('reads a prefix-42 address as @rcs/auth does, and calls it canonical', () => {
    for (const key of keys) {
      const address = encodeAddress(key, 42);
      expect(canonicalAccountId(address)).toEqual(key);
      expect(publicKeyOf(address)).toEqual(decodePublicKey(address));
      expect(canonicalSpelling(address)).toBe(canonicalSs58(address));
    }
  });

  it('reads the same with the checksum hashed by @polkadot/wasm-crypto once it has started', async () => {
    await cryptoReady();
    for (const key of keys) expect(canonicalAccountId(encodeAddress(key, 42))).toEqual(key);
    const address = encodeAddress(keys[0], 42);
    expect(canonicalAccountId(address.slice(0, 47) + (address[47] === 'z' ? 'y' : 'z'))).toBeNull();
  });

  it('answers exactly as @rcs/auth for other prefixes, bad checksums and non-addresses', () => {
    const spellings = keys.slice(0, 40).flatMap((key) => {
      const address = encodeAddress(key, 42);
      const flipped = address.slice(0, 47) + (address[47] === 'z' ? 'y' : 'z');
      return [encodeAddress(key, 0), encodeAddress(key, 2), encodeAddress(key, 1284), flipped, address.slice(1), `1${address}`, address.replace(/.$/, '0')];
    });
    for (const text of [...spellings, '', 'not an address', '0x' + '11'.repeat(32), 'z'.repeat(48), '5'.repeat(48), null as unknown as string, 7 as unknown as string]) {
      expect(canonicalSpelling(text)).toBe(canonicalSs58(text));
      expect(publicKeyOf(text)).toEqual(decodePublicKey(text));
      if (canonicalAccountId(text) !== null) expect(canonicalSs58(text)).toBe(text);
    }
  });
});
