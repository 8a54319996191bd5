import { TypeRegistry } from '@polkadot/types';
import { seededBytes, toHex } from '../test/support';
import { TimelockError } from './errors';
import { decodeWeightsPayload, encodeWeightsPayload, type WeightsTlockPayload } from './weights-payload';

const U64_MAX = (1n << 64n) - 1n;
const hotkey = seededBytes('weights-payload/hotkey', 32);

/** subtensor's struct as @polkadot/types encodes it: an independent SCALE implementation (bytes as a number list, not pre-encoded). */
const registry = new TypeRegistry();
registry.register({ WeightsTlockPayload: { hotkey: 'Vec<u8>', uids: 'Vec<u16>', values: 'Vec<u16>', version_key: 'u64' } });
const polkadotEncoding = (p: WeightsTlockPayload): string =>
  toHex(registry.createType('WeightsTlockPayload', { hotkey: Array.from(p.hotkey), uids: p.uids, values: p.values, version_key: p.versionKey }).toU8a());

function payloadOf(entries: number, seed: string, versionKey = 7n): WeightsTlockPayload {
  const drawn = seededBytes(seed, 4 * entries);
  const view = new DataView(drawn.buffer);
  return {
    hotkey,
    uids: Array.from({ length: entries }, (_, i) => view.getUint16(4 * i, true)),
    values: Array.from({ length: entries }, (_, i) => view.getUint16(4 * i + 2, true)),
    versionKey,
  };
}

function malformed(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    if (error instanceof TimelockError && error.code === 'malformed_payload') return error.message;
    throw error;
  }
  throw new TypeError('accepted');
}

describe('WeightsTlockPayload (SCALE)', () => {
  // 0, 1 and 63 entries take a one-byte compact length, 64 and 16383 two bytes, 16384 four.
  it.each([0, 1, 63, 64, 256, 16383, 16384])('%i entries encode as @polkadot/types does and decode back', (entries) => {
    const payload = payloadOf(entries, `entries/${entries}`, BigInt(entries) * 1_000_003n);
    const bytes = encodeWeightsPayload(payload);
    expect(toHex(bytes)).toBe(polkadotEncoding(payload));
    expect(decodeWeightsPayload(bytes)).toEqual(payload);
  });

  it('carries u16 and u64 extremes', () => {
    const payload = { hotkey, uids: [0, 65535], values: [65535, 0], versionKey: U64_MAX };
    expect(toHex(encodeWeightsPayload(payload))).toBe(polkadotEncoding(payload));
    expect(decodeWeightsPayload(encodeWeightsPayload(payload))).toEqual(payload);
  });

  it('decodes a Buffer into arrays of its own', () => {
    const payload = payloadOf(4, 'buffer');
    const buffer = Buffer.from(encodeWeightsPayload(payload));
    const decoded = decodeWeightsPayload(buffer);
    expect(decoded).toEqual(payload);
    decoded.hotkey.fill(0);
    expect(toHex(buffer)).toBe(toHex(encodeWeightsPayload(payload)));
  });

  it('refuses to encode what the chain could not reveal', () => {
    const good = payloadOf(2, 'good');
    expect(malformed(() => encodeWeightsPayload({ ...good, hotkey: hotkey.subarray(1) }))).toMatch(/hotkey/);
    expect(malformed(() => encodeWeightsPayload({ ...good, uids: [1] }))).toMatch(/1 uids but 2 values/);
    expect(malformed(() => encodeWeightsPayload({ ...good, uids: [1, 65536] }))).toMatch(/u16/);
    expect(malformed(() => encodeWeightsPayload({ ...good, values: [1, -1] }))).toMatch(/u16/);
    expect(malformed(() => encodeWeightsPayload({ ...good, values: [1, 0.5] }))).toMatch(/u16/);
    expect(malformed(() => encodeWeightsPayload({ ...good, versionKey: U64_MAX + 1n }))).toMatch(/u64/);
    expect(malformed(() => encodeWeightsPayload({ ...good, versionKey: -1n }))).toMatch(/u64/);
  });

  it('refuses bytes that are not exactly one payload', () => {
    const bytes = encodeWeightsPayload(payloadOf(3, 'three'));
    expect(malformed(() => decodeWeightsPayload(Uint8Array.of(...bytes, 0)))).toMatch(/trailing/);
    for (let cut = 0; cut < bytes.length; cut += 1) malformed(() => decodeWeightsPayload(bytes.subarray(0, cut)));
    // hotkey length 31, then 33 (compact 0x7c, 0x84)
    expect(malformed(() => decodeWeightsPayload(Uint8Array.of(0x7c, ...bytes.subarray(1, 32), ...bytes.subarray(33))))).toMatch(/hotkey/);
    expect(malformed(() => decodeWeightsPayload(Uint8Array.of(0x84, ...bytes.subarray(1, 33), 0, ...bytes.subarray(33))))).toMatch(/hotkey/);
  });

  // parity-scale-codec's Compact<u32> refuses a value in a wider mode than it needs (@polkadot/types does not check).
  it('refuses compact lengths that are not canonically encoded', () => {
    const empty = encodeWeightsPayload({ hotkey, uids: [], values: [], versionKey: 0n });
    const uidsAt = 33;
    // zero uids in the two-byte and four-byte modes, and the big-integer mode
    for (const length of [[0x01, 0x00], [0x02, 0x00, 0x00, 0x00], [0x03, 0x00, 0x00, 0x00, 0x00]]) {
      const bytes = Uint8Array.of(...empty.subarray(0, uidsAt), ...length, ...empty.subarray(uidsAt + 1));
      expect(malformed(() => decodeWeightsPayload(bytes))).toMatch(/canonical|big-integer/);
    }
  });
});
