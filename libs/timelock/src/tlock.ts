import { bls12_381 } from '@noble/curves/bls12-381';
import type { Fp12 } from '@noble/curves/abstract/tower';
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, randomBytes } from '@noble/hashes/utils';
import { AES_KEY_BYTES, AES_NONCE_BYTES, aesGcmOpen, aesGcmSeal } from './aes-gcm';
import { beaconKeyPoint, decodeG1, decodeG2, roundIdentityPoint } from './beacon';
import { assertBytes, concatBytes, isBytes, xorBytes } from './bytes';
import { AES_GCM_CIPHER_SUITE, parseTimelockCiphertext, serializeTimelockCiphertext } from './ciphertext';
import { TimelockError } from './errors';

const SIGMA_BYTES = 32;
const FP_BYTES = 48;
const { G2, fields } = bls12_381;

/** The randomness of one encryption; tests pass it to reproduce the Rust crate's bytes. */
export interface EncryptRandomness {
  /** The AES-256 key (32 bytes), the message the IBE header carries. */
  esk: Uint8Array;
  /** 32 bytes. */
  sigma: Uint8Array;
  /** The AES-GCM nonce (12 bytes). */
  nonce: Uint8Array;
}

/** arkworks' serialisation of a GT element: its 12 Fp coefficients in tower order, 48 bytes little-endian each. */
function gtBytes(f: Fp12): Uint8Array {
  const out = new Uint8Array(12 * FP_BYTES);
  let offset = 0;
  for (const c6 of [f.c0, f.c1]) {
    for (const c2 of [c6.c0, c6.c1, c6.c2]) {
      for (let c of [c2.c0, c2.c1]) {
        for (let i = 0; i < FP_BYTES; i += 1) {
          out[offset + i] = Number(c & 0xffn);
          c >>= 8n;
        }
        offset += FP_BYTES;
      }
    }
  }
  return out;
}

/** The crate's H3: `Fr::from_be_bytes_mod_order(sha256(sigma ‖ esk))`. */
function h3(sigma: Uint8Array, esk: Uint8Array): bigint {
  return fields.Fr.create(BigInt(`0x${bytesToHex(sha256(concatBytes(sigma, esk)))}`));
}

/**
 * Seals `plaintext` to `round` of the beacon whose G2 public key (96 B compressed) is given: the
 * tle crate's `tle::<TinyBLS381, AESGCMStreamCipherProvider>` byte for byte. Randomness from
 * crypto.getRandomValues unless given (tests).
 */
export function timelockEncrypt(plaintext: Uint8Array, round: bigint | number, beaconPublicKey: Uint8Array, randomness?: EncryptRandomness): Uint8Array {
  if (!isBytes(plaintext)) throw new TypeError('the plaintext must be a Uint8Array');
  const pk = beaconKeyPoint(beaconPublicKey);
  const q = roundIdentityPoint(round);
  const { esk, sigma, nonce } = randomness ?? { esk: randomBytes(AES_KEY_BYTES), sigma: randomBytes(SIGMA_BYTES), nonce: randomBytes(AES_NONCE_BYTES) };
  assertBytes(esk, AES_KEY_BYTES, 'esk');
  assertBytes(sigma, SIGMA_BYTES, 'sigma');
  assertBytes(nonce, AES_NONCE_BYTES, 'nonce');
  const r = h3(sigma, esk);
  if (r === 0n) throw new RangeError('sigma and esk hash to r = 0; draw other randomness');
  // e(Q, r·P) = e(r·Q, P): a G1 multiplication is several times cheaper than a G2 one.
  const mask = sha256(gtBytes(bls12_381.pairing(q.multiply(r), pk)));
  return serializeTimelockCiphertext({
    u: G2.Point.BASE.multiply(r).toBytes(true),
    v: xorBytes(sigma, mask),
    w: xorBytes(esk, sha256(sigma)),
    aesCiphertext: aesGcmSeal(esk, nonce, plaintext),
    nonce,
    cipherSuite: AES_GCM_CIPHER_SUITE,
  });
}

/**
 * Opens `ciphertext` with its round's pulse (the beacon's 48-byte compressed G1 signature of the
 * round), as the crate's `tld`. Throws a TimelockError rather than return anything unauthenticated:
 * the header must re-derive U (else `wrong_round`) and the AES-GCM tag must hold (else `decryption_failed`).
 */
export function timelockDecrypt(ciphertext: Uint8Array, pulseSignature: Uint8Array): Uint8Array {
  const parts = parseTimelockCiphertext(ciphertext);
  const u = decodeG2(parts.u, 'U');
  const pulse = decodeG1(pulseSignature, 'pulse signature');
  const sigma = xorBytes(parts.v, sha256(gtBytes(bls12_381.pairing(pulse, u))));
  const esk = xorBytes(parts.w, sha256(sigma));
  const r = h3(sigma, esk);
  // U is never the identity (decodeG2), so r = 0 cannot match it.
  if (r === 0n || !G2.Point.BASE.multiply(r).equals(u)) {
    throw new TimelockError('wrong_round', 'the pulse does not open this ciphertext: another round or beacon, or a tampered header');
  }
  return aesGcmOpen(esk, parts.nonce, parts.aesCiphertext);
}
