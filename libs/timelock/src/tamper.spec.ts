import { bls12_381 } from '@noble/curves/bls12-381';
import { loadRustOracle, type RustOracle } from '../test/rust-oracle';
import { byteMismatch, hex, quicknetPulse, toHex, vectors } from '../test/support';
import { devBeacon } from './beacon';
import { parseTimelockCiphertext, serializeTimelockCiphertext, TLE_OVERHEAD_BYTES, type TimelockCiphertextParts } from './ciphertext';
import { TimelockError, type TimelockErrorCode } from './errors';
import { timelockDecrypt } from './tlock';

// The crate's own ciphertext of the payload vector, sealed to quicknet round 1000.
const vector = vectors.ciphertexts.find((c) => c.name === 'payload1') ?? vectors.ciphertexts[0];
const original = hex(vector.ciphertext_hex);
const plaintext = hex(vector.plaintext_hex);
const pulse = quicknetPulse(vector.round);
const aesLength = plaintext.length + 16;

/** Where each field of the serialised ciphertext starts (see DECISIONS §12). */
const at = {
  u: 0,
  vLength: 96,
  v: 104,
  wLength: 136,
  w: 144,
  bodyLength: 176,
  aesLength: 184,
  aes: 192,
  tag: 192 + aesLength - 16,
  nonceLength: 192 + aesLength,
  nonce: 200 + aesLength,
  suiteLength: 212 + aesLength,
  suite: 220 + aesLength,
};
const lengthPrefixes = ['vLength', 'wLength', 'bodyLength', 'aesLength', 'nonceLength', 'suiteLength'] as const;

function withByte(offset: number, change: (byte: number) => number): Uint8Array {
  const out = original.slice();
  out[offset] = change(out[offset]);
  return out;
}

function withParts(change: Partial<TimelockCiphertextParts>): Uint8Array {
  return serializeTimelockCiphertext({ ...parseTimelockCiphertext(original), ...change });
}

/** The code of the TimelockError `open` throws; fails the test if it returns (garbage) or throws anything else. */
function refusal(open: () => Uint8Array): TimelockErrorCode {
  let opened: Uint8Array;
  try {
    opened = open();
  } catch (error) {
    if (error instanceof TimelockError) return error.code;
    throw error;
  }
  throw new TypeError(`opened to ${opened.length} bytes: ${toHex(opened).slice(0, 64)}`);
}

describe('tampered ciphertexts are refused with a TimelockError, never opened', () => {
  let rust: RustOracle;

  beforeAll(async () => {
    rust = await loadRustOracle();
  });

  it('the untouched ciphertext opens, and its layout is where this file expects it', () => {
    expect(byteMismatch(timelockDecrypt(original, pulse), plaintext)).toBeUndefined();
    expect(original.length).toBe(plaintext.length + TLE_OVERHEAD_BYTES);
    expect(toHex(original.subarray(at.suite))).toBe(toHex(new TextEncoder().encode('AES_GCM_')));
    expect(toHex(original.subarray(at.nonce, at.nonce + 12))).toBe(vector.nonce_hex);
  });

  // Each is refused by the crate too: these are the cryptographic checks, not our stricter parsing.
  it.each([
    ['U: compression flag cleared', withByte(at.u, (b) => b & 0x7f), ['invalid_point']],
    ['U: sort flag flipped (the negated point)', withByte(at.u, (b) => b ^ 0x20), ['wrong_round']],
    ['U: last byte of x flipped', withByte(at.u + 95, (b) => b ^ 0x01), ['invalid_point', 'wrong_round']],
    ['U: the point at infinity', withParts({ u: Uint8Array.of(0xc0, ...new Uint8Array(95)) }), ['invalid_point']],
    ['U: another valid point (G2)', withParts({ u: bls12_381.G2.Point.BASE.toBytes(true) }), ['wrong_round']],
    ['V: first bit', withByte(at.v, (b) => b ^ 0x01), ['wrong_round']],
    ['V: last bit', withByte(at.v + 31, (b) => b ^ 0x80), ['wrong_round']],
    ['W: first bit', withByte(at.w, (b) => b ^ 0x01), ['wrong_round']],
    ['W: last bit', withByte(at.w + 31, (b) => b ^ 0x80), ['wrong_round']],
    ['AES ciphertext: first byte', withByte(at.aes, (b) => b ^ 0x01), ['decryption_failed']],
    ['AES tag: first byte', withByte(at.tag, (b) => b ^ 0x01), ['decryption_failed']],
    ['AES tag: last byte', withByte(at.tag + 15, (b) => b ^ 0x80), ['decryption_failed']],
    ['nonce: first byte', withByte(at.nonce, (b) => b ^ 0x01), ['decryption_failed']],
    ['nonce: last byte', withByte(at.nonce + 11, (b) => b ^ 0x80), ['decryption_failed']],
    ['AES output one byte short (lengths kept consistent)', withParts({ aesCiphertext: parseTimelockCiphertext(original).aesCiphertext.subarray(1) }), ['decryption_failed']],
  ] as const)('%s', (_name, tampered, codes) => {
    expect(codes).toContain(refusal(() => timelockDecrypt(tampered, pulse)));
    expect(() => rust.decrypt(tampered, pulse)).toThrow();
  });

  it('U with a non-canonical x (x.c0 + p) is refused, as arkworks refuses it', () => {
    const x0 = BigInt(`0x${toHex(original.subarray(at.u + 48, at.u + 96))}`) + bls12_381.fields.Fp.ORDER;
    const tampered = original.slice();
    tampered.set(hex(x0.toString(16).padStart(96, '0')), at.u + 48);
    expect(refusal(() => timelockDecrypt(tampered, pulse))).toBe('invalid_point');
    expect(() => rust.decrypt(tampered, pulse)).toThrow();
  });

  it.each(lengthPrefixes)('the %s prefix off by one either way, or with a high byte set', (field) => {
    for (const change of [(b: number) => b + 1, (b: number) => b - 1] as const) {
      expect(refusal(() => timelockDecrypt(withByte(at[field], change), pulse))).toBe('malformed_ciphertext');
    }
    expect(refusal(() => timelockDecrypt(withByte(at[field] + 7, () => 0x01), pulse))).toBe('malformed_ciphertext');
    expect(refusal(() => timelockDecrypt(withByte(at[field] + 4, () => 0xff), pulse))).toBe('malformed_ciphertext');
  });

  it('every single-byte change outside U, V, W and the AES output is refused before any pairing', () => {
    const structural = [...Array.from({ length: 8 }, (_, i) => lengthPrefixes.map((f) => at[f] + i)).flat(), ...Array.from({ length: 8 }, (_, i) => at.suite + i)];
    for (const offset of structural) {
      for (const flip of [0x01, 0x80]) expect(refusal(() => timelockDecrypt(withByte(offset, (b) => b ^ flip), pulse))).toBe('malformed_ciphertext');
    }
  });

  it.each([
    ['one byte short', original.subarray(0, original.length - 1)],
    ['without its cipher suite', original.subarray(0, at.suiteLength)],
    ['cut inside the AES output', original.subarray(0, at.tag)],
    ['the overhead minus one byte', original.subarray(0, TLE_OVERHEAD_BYTES - 1)],
    ['only U', original.subarray(0, 96)],
    ['empty', new Uint8Array(0)],
  ] as const)('truncated: %s', (_name, tampered) => {
    expect(refusal(() => timelockDecrypt(tampered, pulse))).toBe('malformed_ciphertext');
    expect(() => parseTimelockCiphertext(tampered)).toThrow(TimelockError);
  });

  // arkworks reads a ciphertext from the front and stops, and tld never looks at the cipher suite:
  // the crate opens these. Ours refuses them, as no honest ciphertext has them.
  it.each([
    ['one trailing zero byte', Uint8Array.of(...original, 0)],
    ['a second cipher suite appended', Uint8Array.of(...original, ...original.subarray(at.suiteLength))],
    ['cipher suite AES_GCM! ', withByte(at.suite + 7, () => 0x21)],
    ['cipher suite CHACHA20', withParts({ cipherSuite: new TextEncoder().encode('CHACHA20') })],
  ] as const)('stricter than the crate: %s', (_name, tampered) => {
    expect(refusal(() => timelockDecrypt(tampered, pulse))).toBe('malformed_ciphertext');
    expect(byteMismatch(rust.decrypt(tampered, pulse), plaintext)).toBeUndefined();
  });

  it.each([
    ['V of 31 bytes', { v: parseTimelockCiphertext(original).v.subarray(1) }],
    ['W of 33 bytes', { w: Uint8Array.of(...parseTimelockCiphertext(original).w, 0) }],
    ['an 11-byte nonce', { nonce: hex(vector.nonce_hex).subarray(1) }],
    ['a 13-byte nonce', { nonce: Uint8Array.of(...hex(vector.nonce_hex), 0) }],
    ['a 7-byte cipher suite', { cipherSuite: new TextEncoder().encode('AES_GCM') }],
  ] as const)('a consistently re-serialised ciphertext with %s is malformed', (_name, change) => {
    expect(refusal(() => timelockDecrypt(withParts(change), pulse))).toBe('malformed_ciphertext');
  });
});

describe('pulses that cannot open the ciphertext', () => {
  it.each([
    ['47 bytes', pulse.subarray(1), 'invalid_point'],
    ['49 bytes', Uint8Array.of(...pulse, 0), 'invalid_point'],
    ['the point at infinity', Uint8Array.of(0xc0, ...new Uint8Array(47)), 'invalid_point'],
    ['not on the curve', Uint8Array.of(0x80, ...new Uint8Array(46), 0x07), 'invalid_point'],
    ['the pulse with its sort flag flipped (the negated point)', Uint8Array.of(pulse[0] ^ 0x20, ...pulse.subarray(1)), 'wrong_round'],
    ['the dev beacon pulse of the same round', devBeacon(vectors.dev_beacon.seed).pulse(vector.round), 'wrong_round'],
    ['the quicknet pulse of round 2000', quicknetPulse(2000), 'wrong_round'],
  ] as const)('%s', (_name, badPulse, code) => {
    expect(refusal(() => timelockDecrypt(original, badPulse))).toBe(code);
  });
});
