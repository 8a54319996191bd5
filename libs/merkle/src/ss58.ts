import { blake2b } from '@noble/hashes/blake2';
import { MerkleInputError } from './errors';

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const SS58_PREFIX = [0x53, 0x53, 0x35, 0x38, 0x50, 0x52, 0x45]; // "SS58PRE"

function base58Decode(text: string): Uint8Array {
  const bytes: number[] = [];
  for (const char of text) {
    let carry = ALPHABET.indexOf(char);
    if (carry < 0) throw new MerkleInputError(`not base58: ${JSON.stringify(text)}`);
    for (let i = 0; i < bytes.length; i += 1) {
      carry += bytes[i] * 58;
      bytes[i] = carry & 0xff;
      carry >>= 8;
    }
    for (; carry > 0; carry >>= 8) bytes.push(carry & 0xff);
  }
  for (let i = 0; i < text.length && text[i] === '1'; i += 1) bytes.push(0);
  return Uint8Array.from(bytes.reverse());
}

function base58Encode(bytes: Uint8Array): string {
  const digits: number[] = [];
  for (const byte of bytes) {
    let carry = byte;
    for (let i = 0; i < digits.length; i += 1) {
      carry += digits[i] << 8;
      digits[i] = carry % 58;
      carry = Math.floor(carry / 58);
    }
    for (; carry > 0; carry = Math.floor(carry / 58)) digits.push(carry % 58);
  }
  let out = '';
  for (let i = 0; i < bytes.length && bytes[i] === 0; i += 1) out += '1';
  for (let i = digits.length - 1; i >= 0; i -= 1) out += ALPHABET[digits[i]];
  return out;
}

function checksum(payload: Uint8Array): Uint8Array {
  const input = new Uint8Array(SS58_PREFIX.length + payload.length);
  input.set(SS58_PREFIX);
  input.set(payload, SS58_PREFIX.length);
  return blake2b(input, { dkLen: 64 }).subarray(0, 2);
}

/**
 * The 32-byte account id of an SS58 address of any network prefix (0..16383), checksum checked.
 * Written here so that a browser or CLI verifying a claim package needs nothing but this library.
 */
export function ss58ToAccountId(address: string): Uint8Array {
  const decoded = base58Decode(address);
  const prefixLength = decoded.length > 0 && (decoded[0] & 0x40) !== 0 ? 2 : 1;
  if (decoded.length !== prefixLength + 32 + 2) throw new MerkleInputError(`not an SS58 account address: ${JSON.stringify(address)}`);
  const body = decoded.subarray(0, prefixLength + 32);
  const expected = checksum(body);
  if (decoded[prefixLength + 32] !== expected[0] || decoded[prefixLength + 33] !== expected[1]) {
    throw new MerkleInputError(`SS58 checksum mismatch: ${JSON.stringify(address)}`);
  }
  return decoded.slice(prefixLength, prefixLength + 32);
}

/** SS58 spelling of a 32-byte account id with a one-byte network prefix (42, the generic Substrate one, by default). */
export function accountIdToSs58(accountId: Uint8Array, prefix = 42): string {
  if (accountId.length !== 32) throw new MerkleInputError(`an account id is 32 bytes, got ${accountId.length}`);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > 63) throw new MerkleInputError(`only one-byte SS58 prefixes 0..63 are written, got ${prefix}`);
  const body = new Uint8Array(33);
  body[0] = prefix;
  body.set(accountId, 1);
  const full = new Uint8Array(35);
  full.set(body);
  full.set(checksum(body), 33);
  return base58Encode(full);
}
