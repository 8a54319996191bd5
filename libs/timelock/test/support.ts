import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** ../shared/vectors/timelock-weights.json: quicknet data and ciphertexts made by the Rust tle crate (read in place, never copied). */
export const VECTORS_PATH = resolve(__dirname, '../../../../shared/vectors/timelock-weights.json');

export interface TimelockVectors {
  beacon: { public_key_g2_compressed: string; signature_dst: string };
  pulses: { round: number; signature_g1_compressed: string }[];
  payloads: { name: string; hotkey_public_key: string; uids: number[]; values: number[]; version_key: number; scale_hex: string }[];
  ciphertexts: { name: string; round: number; plaintext_hex: string; esk_hex: string; sigma_hex: string; nonce_hex: string; ciphertext_hex: string }[];
  negative: { ciphertext: string; pulse_round: number }[];
  dev_beacon: { seed: string; public_key_g2_compressed: string; pulses: { round: number; signature_g1_compressed: string }[] };
}

export const vectors = JSON.parse(readFileSync(VECTORS_PATH, 'utf8')) as TimelockVectors;

export function hex(text: string): Uint8Array {
  const digits = text.startsWith('0x') ? text.slice(2) : text;
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(digits)) throw new TypeError(`not hex: ${text.slice(0, 40)}`);
  return Uint8Array.from(Buffer.from(digits, 'hex'));
}

export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}

export const quicknetKey = hex(vectors.beacon.public_key_g2_compressed);

/** The real quicknet pulse of `round` (the vectors hold rounds 1000 and 2000). */
export function quicknetPulse(round: number): Uint8Array {
  const pulse = vectors.pulses.find((p) => p.round === round);
  if (pulse === undefined) throw new RangeError(`no quicknet pulse of round ${round} in the vectors`);
  return hex(pulse.signature_g1_compressed);
}

/** Deterministic bytes for test inputs (sha256 in counter mode), so a failing case can be replayed. */
export function seededBytes(seed: string, length: number): Uint8Array {
  const out = new Uint8Array(length);
  for (let block = 0; block * 32 < length; block += 1) {
    const digest = createHash('sha256').update(`${seed}/${block}`).digest();
    out.set(digest.subarray(0, Math.min(32, length - block * 32)), block * 32);
  }
  return out;
}

/**
 * Where two byte arrays first differ, or undefined when they are equal. Cheaper than `toEqual` on
 * kilobyte arrays (which Jest compares element by element) and says where they part.
 */
export function byteMismatch(actual: Uint8Array, expected: Uint8Array): string | undefined {
  if (Buffer.from(actual.buffer, actual.byteOffset, actual.byteLength).equals(Buffer.from(expected.buffer, expected.byteOffset, expected.byteLength))) return undefined;
  const at = actual.findIndex((byte, i) => byte !== expected[i]);
  return at === -1 || at >= expected.length ? `length ${actual.length}, expected ${expected.length}` : `byte ${at}: ${actual[at]}, expected ${expected[at]} (lengths ${actual.length}, ${expected.length})`;
}
