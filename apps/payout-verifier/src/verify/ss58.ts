import { createHash } from 'node:crypto';
import { blake2b, isReady } from '@polkadot/wasm-crypto';
import { canonicalSs58, decodePublicKey } from '@rcs/auth';

/**
 * The verifier's SS58 reads, fast for the one spelling every service stores (DECISIONS §2 Identity:
 * prefix 42, 48 base58 characters): a 35-byte base58 decode and one BLAKE2b-512 for the checksum,
 * a few µs where @polkadot/util-crypto's decode and re-encode cost about 130 µs. A string
 * that is such an address is its own canonical spelling (base58 is one-to-one on strings without
 * leading `1`s, and a prefix byte of 42 gives none); any other string goes to `@rcs/auth`'s readers,
 * so each answer is exactly theirs. An epoch of 100,000 leaves reads about 400,000 addresses.
 */

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const DIGIT = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i += 1) DIGIT[ALPHABET.charCodeAt(i)] = i;

const CANONICAL_PREFIX = 42;
/** Prefix byte ‖ 32-byte account id ‖ 2 checksum bytes. */
const DECODED_BYTES = 35;
const ENCODED_CHARS = 48;
const CHECKSUM_CONTEXT = Buffer.from('SS58PRE');

/** The 32-byte account id of a checksummed prefix-42 SS58 address spelled canonically, or null for any other string. */
export function canonicalAccountId(address: string): Uint8Array | null {
  // Records come from the pool's JSON: anything but a string goes to the library readers too.
  if (typeof address !== 'string' || address.length !== ENCODED_CHARS) return null;
  // Little-endian while decoding, three characters (58³ < 2²³) per pass over the bytes in use; a value
  // that does not fit 35 bytes is not such an address.
  const bytes = new Uint8Array(DECODED_BYTES);
  let used = 0;
  for (let c = 0; c < ENCODED_CHARS; c += 3) {
    const d0 = digit(address, c);
    const d1 = digit(address, c + 1);
    const d2 = digit(address, c + 2);
    if (d0 < 0 || d1 < 0 || d2 < 0) return null;
    let carry = (d0 * 58 + d1) * 58 + d2;
    for (let i = 0; i < used; i += 1) {
      carry += bytes[i] * GROUP;
      bytes[i] = carry & 0xff;
      carry >>>= 8;
    }
    for (; carry > 0; carry >>>= 8) {
      if (used === DECODED_BYTES) return null;
      bytes[used++] = carry & 0xff;
    }
  }
  if (used !== DECODED_BYTES) return null;
  bytes.reverse();
  if (bytes[0] !== CANONICAL_PREFIX) return null;
  const checksum = checksumOf(bytes.subarray(0, 33));
  if (checksum[0] !== bytes[33] || checksum[1] !== bytes[34]) return null;
  return bytes.slice(1, 33);
}

const GROUP = 58 * 58 * 58;

function digit(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return code < 128 ? DIGIT[code] : -1;
}

const NO_KEY = new Uint8Array(0);
/** BLAKE2b-512 of `SS58PRE ‖ body`: @polkadot/wasm-crypto's once it is started (about 2 µs), else node's. */
function checksumOf(body: Uint8Array): Uint8Array {
  const input = new Uint8Array(CHECKSUM_CONTEXT.length + body.length);
  input.set(CHECKSUM_CONTEXT);
  input.set(body, CHECKSUM_CONTEXT.length);
  return isReady() ? blake2b(input, NO_KEY, 64) : createHash('blake2b512').update(input).digest();
}

/** `@rcs/auth`'s `canonicalSs58`: the prefix-42 spelling of an address of any prefix, or null. */
export function canonicalSpelling(address: string): string | null {
  return canonicalAccountId(address) !== null ? address : canonicalSs58(address);
}

/** `@rcs/auth`'s `decodePublicKey`: the 32-byte account id of an address of any prefix, or null. */
export function publicKeyOf(address: string): Uint8Array | null {
  return canonicalAccountId(address) ?? decodePublicKey(address);
}

/** One judgement's reads: each distinct string decoded once (an epoch names a hotkey in its snapshot, once per competition, and in its entry). */
export class CanonicalAccounts {
  readonly #ids = new Map<string, Uint8Array | null>();

  /** `canonicalAccountId`. */
  id(address: string): Uint8Array | null {
    let id = this.#ids.get(address);
    if (id === undefined) this.#ids.set(address, (id = canonicalAccountId(address)));
    return id;
  }

  /** `canonicalSpelling`. */
  spelling(address: string): string | null {
    return this.id(address) !== null ? address : canonicalSs58(address);
  }
}
