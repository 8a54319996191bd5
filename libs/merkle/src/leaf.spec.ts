import { TypeRegistry } from '@polkadot/types';
import { decodeAddress, encodeAddress } from '@polkadot/util-crypto';
import { CLAIM_LEAF_BYTES, decodeClaimLeaf, encodeClaimLeaf } from './leaf';
import { accountIdToSs58, ss58ToAccountId } from './ss58';

const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
const BOB = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';
const U64_MAX = (1n << 64n) - 1n;

describe('claim leaf (SCALE ClaimData without proof)', () => {
  it('is 84 bytes laid out as epoch u64 LE ‖ index u32 LE ‖ hotkey ‖ recipient ‖ amount u64 LE', () => {
    const leaf = encodeClaimLeaf({ epoch: 0x0102030405060708n, index: 0x0a0b0c0d, hotkey: ALICE, recipientColdkey: BOB, amount: 0x1112131415161718n });
    expect(leaf.length).toBe(CLAIM_LEAF_BYTES);
    expect(Buffer.from(leaf.subarray(0, 12)).toString('hex')).toBe('08070605040302010d0c0b0a');
    expect(leaf.subarray(12, 44)).toEqual(decodeAddress(ALICE));
    expect(leaf.subarray(44, 76)).toEqual(decodeAddress(BOB));
    expect(Buffer.from(leaf.subarray(76)).toString('hex')).toBe('1817161514131211');
  });

  it('equals the SCALE encoding @polkadot/types produces for the ClaimData fields', () => {
    const registry = new TypeRegistry();
    registry.register({ ClaimLeaf: { epoch: 'u64', index: 'u32', hotkey: 'AccountId32', recipient_coldkey: 'AccountId32', amount: 'u64' } });
    for (const [epoch, index, amount] of [
      [0n, 0, 0n],
      [42n, 7, 1_000_000_000n],
      [U64_MAX, 0xffffffff, U64_MAX],
    ] as const) {
      const expected = registry.createType('ClaimLeaf', { epoch, index, hotkey: ALICE, recipient_coldkey: BOB, amount }).toU8a();
      expect(encodeClaimLeaf({ epoch, index, hotkey: ALICE, recipientColdkey: BOB, amount })).toEqual(expected);
      expect(decodeClaimLeaf(expected)).toEqual({ epoch, index, hotkey: decodeAddress(ALICE), recipientColdkey: decodeAddress(BOB), amount });
    }
  });

  it('accepts accounts as bytes, 0x hex or SS58 of any prefix, all encoding alike', () => {
    const bytes = decodeAddress(ALICE);
    const forms = [bytes, `0x${Buffer.from(bytes).toString('hex')}`, encodeAddress(bytes, 0), encodeAddress(bytes, 5000)];
    const leaves = forms.map((hotkey) => encodeClaimLeaf({ epoch: 1, index: 0, hotkey, recipientColdkey: BOB, amount: 5n }));
    for (const leaf of leaves) expect(leaf).toEqual(leaves[0]);
  });

  it('refuses values out of range and malformed accounts', () => {
    const base = { epoch: 1, index: 0, hotkey: ALICE, recipientColdkey: BOB, amount: 1n };
    expect(() => encodeClaimLeaf({ ...base, amount: U64_MAX + 1n })).toThrow(/u64/);
    expect(() => encodeClaimLeaf({ ...base, amount: -1n })).toThrow(/u64/);
    expect(() => encodeClaimLeaf({ ...base, amount: '1.5' })).toThrow(/u64/);
    expect(() => encodeClaimLeaf({ ...base, epoch: -1 })).toThrow(/u64/);
    expect(() => encodeClaimLeaf({ ...base, index: 2 ** 32 })).toThrow(/u32/);
    expect(() => encodeClaimLeaf({ ...base, index: 1.5 })).toThrow(/u32/);
    expect(() => encodeClaimLeaf({ ...base, hotkey: `${ALICE.slice(0, -1)}Z` })).toThrow(/checksum|SS58/);
    expect(() => encodeClaimLeaf({ ...base, hotkey: '0x1234' })).toThrow(/32 bytes/);
    expect(() => encodeClaimLeaf({ ...base, hotkey: new Uint8Array(31) })).toThrow(/32 bytes/);
  });
});

describe('SS58 without @polkadot (for browsers and CLIs)', () => {
  it('reads and writes what @polkadot/util-crypto reads and writes', () => {
    for (let i = 0; i < 50; i += 1) {
      const account = Uint8Array.from({ length: 32 }, (_, j) => (i * 31 + j * 17 + (i === 3 ? 0 : 1) * (j === 0 ? 0 : 1)) & 0xff);
      if (i === 7) account.fill(0);
      for (const prefix of [0, 2, 42, 63]) {
        const written = accountIdToSs58(account, prefix);
        expect(written).toBe(encodeAddress(account, prefix));
        expect(ss58ToAccountId(written)).toEqual(account);
      }
      expect(ss58ToAccountId(encodeAddress(account, 1000))).toEqual(account);
    }
  });
});
