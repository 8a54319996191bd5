import { isBytes, ownBytes } from './bytes';
import { TimelockError } from './errors';

const U64_MAX = (1n << 64n) - 1n;
const HOTKEY_BYTES = 32;

/** subtensor's `WeightsTlockPayload`: what a timelocked weight commit reveals. */
export interface WeightsTlockPayload {
  /** The signer's 32-byte public key: at reveal the chain drops a commit that names another hotkey. */
  hotkey: Uint8Array;
  /** u16 each. */
  uids: number[];
  /** u16 each, one per uid. */
  values: number[];
  /** u64. */
  versionKey: bigint;
}

function malformed(message: string): TimelockError {
  return new TimelockError('malformed_payload', message);
}

/** SCALE compact encoding of a length (modes 0–2; a payload never needs the big-integer mode). */
function compactLength(n: number): Uint8Array {
  if (n < 1 << 6) return Uint8Array.of(n << 2);
  if (n < 1 << 14) return Uint8Array.of(((n << 2) | 1) & 0xff, n >> 6);
  if (n < 1 << 30) {
    const v = ((n << 2) | 2) >>> 0;
    return Uint8Array.of(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, v >>> 24);
  }
  throw malformed(`a length of ${n} does not fit a payload`);
}

function assertU16s(items: number[], what: string): void {
  if (!Array.isArray(items)) throw malformed(`${what} must be an array of u16`);
  for (const item of items) {
    if (!Number.isInteger(item) || item < 0 || item > 0xffff) throw malformed(`${what} holds ${String(item)}, not a u16`);
  }
}

/**
 * SCALE `{hotkey: Vec<u8>, uids: Vec<u16>, values: Vec<u16>, version_key: u64}`. Refuses a hotkey that
 * is not 32 bytes and uids/values of different lengths, which the chain would only drop at reveal.
 */
export function encodeWeightsPayload(payload: WeightsTlockPayload): Uint8Array {
  const { hotkey, uids, values, versionKey } = payload;
  if (!isBytes(hotkey) || hotkey.length !== HOTKEY_BYTES) throw malformed(`hotkey must be ${HOTKEY_BYTES} bytes`);
  assertU16s(uids, 'uids');
  assertU16s(values, 'values');
  if (uids.length !== values.length) throw malformed(`${uids.length} uids but ${values.length} values`);
  if (typeof versionKey !== 'bigint' || versionKey < 0n || versionKey > U64_MAX) throw malformed(`versionKey must be a u64 bigint`);
  const hotkeyLength = compactLength(hotkey.length);
  const uidsLength = compactLength(uids.length);
  const valuesLength = compactLength(values.length);
  const out = new Uint8Array(hotkeyLength.length + hotkey.length + uidsLength.length + valuesLength.length + 2 * (uids.length + values.length) + 8);
  const view = new DataView(out.buffer);
  let offset = 0;
  const put = (bytes: Uint8Array): void => {
    out.set(bytes, offset);
    offset += bytes.length;
  };
  const putU16s = (items: number[]): void => {
    for (const item of items) {
      view.setUint16(offset, item, true);
      offset += 2;
    }
  };
  put(hotkeyLength);
  put(hotkey);
  put(uidsLength);
  putU16s(uids);
  put(valuesLength);
  putU16s(values);
  view.setBigUint64(offset, versionKey, true);
  return out;
}

/** The inverse of `encodeWeightsPayload`: every byte read, canonical compact lengths, nothing trailing. */
export function decodeWeightsPayload(input: Uint8Array): WeightsTlockPayload {
  if (!isBytes(input)) throw malformed('a payload is bytes');
  // The hotkey handed back is a copy, never a view of the caller's buffer.
  const bytes = ownBytes(input);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 0;
  const need = (n: number, what: string): void => {
    if (offset + n > bytes.length) throw malformed(`${what} runs past the end of the payload (${bytes.length} bytes)`);
  };
  // parity-scale-codec refuses a compact integer in a wider mode than its value needs; so do we.
  const readLength = (what: string): number => {
    need(1, `${what} length`);
    const mode = bytes[offset] & 3;
    let value: number;
    if (mode === 0) {
      value = bytes[offset] >> 2;
      offset += 1;
    } else if (mode === 1) {
      need(2, `${what} length`);
      value = view.getUint16(offset, true) >> 2;
      offset += 2;
      if (value < 1 << 6) throw malformed(`${what} length ${value} is not canonically encoded`);
    } else if (mode === 2) {
      need(4, `${what} length`);
      value = view.getUint32(offset, true) >>> 2;
      offset += 4;
      if (value < 1 << 14) throw malformed(`${what} length ${value} is not canonically encoded`);
    } else {
      throw malformed(`${what} length uses the big-integer compact mode, longer than any payload`);
    }
    return value;
  };
  const readU16s = (what: string): number[] => {
    const count = readLength(what);
    need(2 * count, what);
    const items = Array.from({ length: count }, (_, i) => view.getUint16(offset + 2 * i, true));
    offset += 2 * count;
    return items;
  };
  const hotkeyLength = readLength('hotkey');
  if (hotkeyLength !== HOTKEY_BYTES) throw malformed(`hotkey must be ${HOTKEY_BYTES} bytes, got ${hotkeyLength}`);
  need(hotkeyLength, 'hotkey');
  const hotkey = bytes.slice(offset, offset + hotkeyLength);
  offset += hotkeyLength;
  const uids = readU16s('uids');
  const values = readU16s('values');
  need(8, 'version_key');
  const versionKey = view.getBigUint64(offset, true);
  offset += 8;
  if (offset !== bytes.length) throw malformed(`${bytes.length - offset} trailing bytes after the payload`);
  return { hotkey, uids, values, versionKey };
}
