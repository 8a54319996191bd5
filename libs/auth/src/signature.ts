import { isReady, sr25519Verify, waitReady } from '@polkadot/wasm-crypto';
import { decodeAddress, encodeAddress } from '@polkadot/util-crypto';

/** The sr25519 WebAssembly module could not start, or was used before `cryptoReady()`. */
export class CryptoNotReadyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CryptoNotReadyError';
  }
}

let ready: Promise<void> | undefined;

/** Starts the sr25519 WebAssembly module once; await it before `verifySignature`. */
export function cryptoReady(): Promise<void> {
  ready ??= waitReady().then((ok) => {
    if (!ok) throw new CryptoNotReadyError('@polkadot/wasm-crypto failed to initialise');
  });
  return ready;
}

const SIGNATURE_HEX = /^(?:0x)?([0-9a-fA-F]{128})$/;
const SS58_CHARS = /^[1-9A-HJ-NP-Za-km-z]+$/;
const BYTES_OPEN = Buffer.from('<Bytes>');
const BYTES_CLOSE = Buffer.from('</Bytes>');

/** 64 signature bytes from hex with or without `0x`, or null. */
export function decodeSignature(signature: string): Uint8Array | null {
  const m = SIGNATURE_HEX.exec(signature);
  return m ? Buffer.from(m[1], 'hex') : null;
}

/** The 32-byte account id of an SS58 address (any network prefix), or null. */
export function decodePublicKey(ss58: string): Uint8Array | null {
  // decodeAddress also takes hex public keys; an X-Hotkey must be SS58.
  if (!SS58_CHARS.test(ss58)) return null;
  try {
    const key = decodeAddress(ss58);
    return key.length === 32 ? key : null;
  } catch {
    return null;
  }
}

/** The SS58 network prefix every service stores, compares and prints identities in (DECISIONS.md §2 Identity). */
export const CANONICAL_SS58_PREFIX = 42;

/**
 * The canonical spelling (prefix 42) of an SS58 address written with any network prefix, or null when
 * `ss58` is not the address of a 32-byte account. Two spellings of one key give the same string.
 */
export function canonicalSs58(ss58: string): string | null {
  const publicKey = decodePublicKey(ss58);
  return publicKey === null ? null : ss58OfPublicKey(publicKey);
}

/** The canonical SS58 spelling (prefix 42) of a 32-byte public key. */
export function ss58OfPublicKey(publicKey: Uint8Array): string {
  return encodeAddress(publicKey, CANONICAL_SS58_PREFIX);
}

/** True when `addr` is an SS58 address of a 32-byte account (any network prefix). */
export function isValidSs58(addr: string): boolean {
  return decodePublicKey(addr) !== null;
}

/**
 * Whether `signature` (sr25519, hex) by the SS58 `ss58` signs `message` itself or the
 * polkadot.js-extension form `<Bytes>message</Bytes>`. Malformed input gives false.
 */
export function verifySignature(message: string | Uint8Array, signature: string, ss58: string): boolean {
  const sig = decodeSignature(signature);
  const publicKey = sig && decodePublicKey(ss58);
  return sig !== null && publicKey !== null && verifyDecoded(message, sig, publicKey);
}

/** `verifySignature` on already decoded signature and public key. */
export function verifyDecoded(message: string | Uint8Array, signature: Uint8Array, publicKey: Uint8Array): boolean {
  if (!isReady()) throw new CryptoNotReadyError('await cryptoReady() before verifying signatures');
  const bytes = typeof message === 'string' ? Buffer.from(message, 'utf8') : message;
  return (
    sr25519Verify(signature, bytes, publicKey) ||
    sr25519Verify(signature, Buffer.concat([BYTES_OPEN, bytes, BYTES_CLOSE]), publicKey)
  );
}
