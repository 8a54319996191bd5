import { hex, quicknetKey, quicknetPulse, toHex, vectors } from '../test/support';
import { parseTimelockCiphertext, TLE_OVERHEAD_BYTES } from './ciphertext';
import { devBeacon, roundIdentity, verifyPulse } from './beacon';
import { TimelockError } from './errors';
import { timelockDecrypt, timelockEncrypt } from './tlock';
import { decodeWeightsPayload, encodeWeightsPayload } from './weights-payload';

const devKey = hex(vectors.dev_beacon.public_key_g2_compressed);

describe('drand quicknet pulses', () => {
  it.each(vectors.pulses)('round $round verifies against the quicknet key', ({ round, signature_g1_compressed }) => {
    expect(verifyPulse(round, hex(signature_g1_compressed), quicknetKey)).toBe(true);
  });

  it('a pulse verifies for its own round and beacon only', () => {
    expect(verifyPulse(2000, quicknetPulse(1000), quicknetKey)).toBe(false);
    expect(verifyPulse(1000, quicknetPulse(1000), devKey)).toBe(false);
  });

  it('a signature or key that is not a valid point is a failed verification, not a throw', () => {
    const pulse = quicknetPulse(1000);
    expect(verifyPulse(1000, pulse.subarray(1), quicknetKey)).toBe(false);
    expect(verifyPulse(1000, Uint8Array.of(0xc0, ...new Uint8Array(47)), quicknetKey)).toBe(false);
    expect(verifyPulse(1000, pulse, quicknetKey.subarray(0, 95))).toBe(false);
  });

  it('Q(n) is a 48-byte compressed G1 point that depends on the round', () => {
    expect(roundIdentity(1000)).toHaveLength(48);
    expect(roundIdentity(1000n)).toEqual(roundIdentity(1000));
    expect(toHex(roundIdentity(1000))).not.toBe(toHex(roundIdentity(1001)));
  });

  it('refuses a round that is not a u64', () => {
    expect(() => roundIdentity(-1)).toThrow(RangeError);
    expect(() => roundIdentity(1.5)).toThrow(RangeError);
    expect(() => roundIdentity(1n << 64n)).toThrow(RangeError);
  });
});

describe('the dev beacon', () => {
  const beacon = devBeacon(vectors.dev_beacon.seed);

  it('reproduces the public key of the vectors from the seed', () => {
    expect(toHex(beacon.publicKey)).toBe(vectors.dev_beacon.public_key_g2_compressed);
  });

  it.each(vectors.dev_beacon.pulses)('reproduces the pulse of round $round byte for byte, and it verifies', ({ round, signature_g1_compressed }) => {
    expect(toHex(beacon.pulse(round))).toBe(signature_g1_compressed);
    expect(verifyPulse(round, hex(signature_g1_compressed), devKey)).toBe(true);
  });
});

describe('ciphertexts made by the Rust tle crate', () => {
  it.each(vectors.ciphertexts)('$name decrypts with the pulse of round $round', ({ round, plaintext_hex, ciphertext_hex }) => {
    expect(toHex(timelockDecrypt(hex(ciphertext_hex), quicknetPulse(round)))).toBe(plaintext_hex);
  });

  it.each(vectors.ciphertexts)('$name is re-made byte for byte from its plaintext, esk, sigma and nonce', ({ round, plaintext_hex, esk_hex, sigma_hex, nonce_hex, ciphertext_hex }) => {
    const ciphertext = timelockEncrypt(hex(plaintext_hex), round, quicknetKey, { esk: hex(esk_hex), sigma: hex(sigma_hex), nonce: hex(nonce_hex) });
    expect(toHex(ciphertext)).toBe(ciphertext_hex);
    expect(ciphertext.length).toBe(plaintext_hex.length / 2 + TLE_OVERHEAD_BYTES);
    const parts = parseTimelockCiphertext(ciphertext);
    expect(toHex(parts.nonce)).toBe(nonce_hex);
    expect(new TextDecoder().decode(parts.cipherSuite)).toBe('AES_GCM_');
  });

  it('takes Node Buffers without writing to them or handing back views of them', () => {
    const [vector] = vectors.ciphertexts;
    const ciphertext = Buffer.from(vector.ciphertext_hex, 'hex');
    const pulse = Buffer.from(vectors.pulses[0].signature_g1_compressed, 'hex');
    const key = Buffer.from(vectors.beacon.public_key_g2_compressed, 'hex');
    expect(toHex(timelockDecrypt(ciphertext, pulse))).toBe(vector.plaintext_hex);
    const randomness = { esk: Buffer.from(vector.esk_hex, 'hex'), sigma: Buffer.from(vector.sigma_hex, 'hex'), nonce: Buffer.from(vector.nonce_hex, 'hex') };
    expect(toHex(timelockEncrypt(Buffer.from(vector.plaintext_hex, 'hex'), vector.round, key, randomness))).toBe(vector.ciphertext_hex);
    expect(verifyPulse(vector.round, pulse, key)).toBe(true);
    expect([ciphertext, pulse, key].map(toHex)).toEqual([vector.ciphertext_hex, vectors.pulses[0].signature_g1_compressed, vectors.beacon.public_key_g2_compressed]);
    const parts = parseTimelockCiphertext(ciphertext);
    parts.u.fill(0);
    expect(toHex(ciphertext)).toBe(vector.ciphertext_hex);
  });

  it.each(vectors.negative)('$ciphertext is refused with the pulse of round $pulse_round (wrong_round)', ({ ciphertext, pulse_round }) => {
    const vector = vectors.ciphertexts.find((c) => c.name === ciphertext);
    if (vector === undefined) throw new TypeError(`no ciphertext ${ciphertext}`);
    let refusal: unknown;
    try {
      timelockDecrypt(hex(vector.ciphertext_hex), quicknetPulse(pulse_round));
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(TimelockError);
    expect((refusal as TimelockError).code).toBe('wrong_round');
  });
});

describe('the WeightsTlockPayload vector', () => {
  it.each(vectors.payloads)('$name encodes byte for byte and decodes back', ({ hotkey_public_key, uids, values, version_key, scale_hex }) => {
    const payload = { hotkey: hex(hotkey_public_key), uids, values, versionKey: BigInt(version_key) };
    expect(toHex(encodeWeightsPayload(payload))).toBe(scale_hex);
    expect(decodeWeightsPayload(hex(scale_hex))).toEqual(payload);
  });

  it('is what the payload1 ciphertext carries', () => {
    const ciphertext = vectors.ciphertexts.find((c) => c.name === 'payload1');
    expect(ciphertext?.plaintext_hex).toBe(vectors.payloads[0].scale_hex);
  });
});
