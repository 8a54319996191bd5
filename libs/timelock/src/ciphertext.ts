import { AES_NONCE_BYTES, AES_TAG_BYTES } from './aes-gcm';
import { G2_COMPRESSED_BYTES } from './beacon';
import { concatBytes, isBytes, ownBytes, u64Bytes } from './bytes';
import { TimelockError } from './errors';

/** `CIPHER_SUITE` of the tle crate's `AESGCMStreamCipherProvider`. */
export const AES_GCM_CIPHER_SUITE = Uint8Array.of(0x41, 0x45, 0x53, 0x5f, 0x47, 0x43, 0x4d, 0x5f); // "AES_GCM_"

const SIGMA_BYTES = 32;
const VEC_PREFIX_BYTES = 8;

/**
 * Ciphertext bytes beyond the plaintext's: U 96 ‖ V (8+32) ‖ W (8+32) ‖ body prefix 8 ‖
 * (AES prefix 8 ‖ tag 16 ‖ nonce prefix 8 ‖ nonce 12) ‖ suite (8+8).
 */
export const TLE_OVERHEAD_BYTES = 244;

/** The fields of a serialised `TLECiphertext<TinyBLS381>`. */
export interface TimelockCiphertextParts {
  /** r·G2, compressed (96 bytes). */
  u: Uint8Array;
  /** sigma ⊕ H(e(Q, r·P)) (32 bytes). */
  v: Uint8Array;
  /** esk ⊕ sha256(sigma) (32 bytes). */
  w: Uint8Array;
  /** AES-256-GCM ciphertext ‖ 16-byte tag. */
  aesCiphertext: Uint8Array;
  /** 12 bytes. */
  nonce: Uint8Array;
  /** `AES_GCM_`. */
  cipherSuite: Uint8Array;
}

/** arkworks' `Vec<u8>`: a u64 little-endian length, then the bytes. */
function vec(bytes: Uint8Array): Uint8Array {
  return concatBytes(u64Bytes(BigInt(bytes.length), false), bytes);
}

/** The arkworks compressed serialisation the Rust crate writes (and subtensor reads). */
export function serializeTimelockCiphertext(parts: TimelockCiphertextParts): Uint8Array {
  return concatBytes(parts.u, vec(parts.v), vec(parts.w), vec(concatBytes(vec(parts.aesCiphertext), vec(parts.nonce))), vec(parts.cipherSuite));
}

/**
 * Reads a ciphertext strictly: every length exactly as the crate writes it and nothing trailing.
 * arkworks itself would take trailing bytes and any cipher suite; no honest ciphertext has either.
 * Does not check that U is a point (`timelockDecrypt` does).
 */
export function parseTimelockCiphertext(input: Uint8Array): TimelockCiphertextParts {
  if (!isBytes(input)) throw new TimelockError('malformed_ciphertext', 'a ciphertext is bytes');
  // The parts are copies (`slice` of a plain array), never views of the caller's buffer.
  const bytes = ownBytes(input);
  if (bytes.length < TLE_OVERHEAD_BYTES) {
    throw new TimelockError('malformed_ciphertext', `a ciphertext is at least ${TLE_OVERHEAD_BYTES} bytes, got ${bytes.length}`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 0;
  const take = (length: number): Uint8Array => {
    const out = bytes.slice(offset, offset + length);
    offset += length;
    return out;
  };
  // A u64 length that must equal `expected`; read whole so a set high byte is not mistaken for a match.
  const lengthPrefix = (what: string, expected: number): void => {
    if (offset + VEC_PREFIX_BYTES > bytes.length) throw new TimelockError('malformed_ciphertext', `${what} length runs past the end`);
    const length = view.getBigUint64(offset, true);
    if (length !== BigInt(expected)) throw new TimelockError('malformed_ciphertext', `${what} length is ${length}, expected ${expected}`);
    offset += VEC_PREFIX_BYTES;
  };
  const aesLength = bytes.length - TLE_OVERHEAD_BYTES + AES_TAG_BYTES;
  const u = take(G2_COMPRESSED_BYTES);
  lengthPrefix('V', SIGMA_BYTES);
  const v = take(SIGMA_BYTES);
  lengthPrefix('W', SIGMA_BYTES);
  const w = take(SIGMA_BYTES);
  lengthPrefix('body', VEC_PREFIX_BYTES + aesLength + VEC_PREFIX_BYTES + AES_NONCE_BYTES);
  lengthPrefix('AES ciphertext', aesLength);
  const aesCiphertext = take(aesLength);
  lengthPrefix('nonce', AES_NONCE_BYTES);
  const nonce = take(AES_NONCE_BYTES);
  lengthPrefix('cipher suite', AES_GCM_CIPHER_SUITE.length);
  const cipherSuite = take(AES_GCM_CIPHER_SUITE.length);
  if (!cipherSuite.every((byte, i) => byte === AES_GCM_CIPHER_SUITE[i])) {
    throw new TimelockError('malformed_ciphertext', `cipher suite ${JSON.stringify(String.fromCharCode(...cipherSuite))} is not AES_GCM_`);
  }
  return { u, v, w, aesCiphertext, nonce, cipherSuite };
}
