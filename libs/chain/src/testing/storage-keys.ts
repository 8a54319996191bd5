import { bnToU8a, compactToU8a, u8aConcat, u8aToHex } from '@polkadot/util';
import { blake2AsU8a, xxhashAsU8a } from '@polkadot/util-crypto';

/**
 * Storage keys and SCALE values written by hand, without `@polkadot/api`, so tests can seed a
 * `LocalRpcServer` and prove that an adapter reads the keys the real runtime declares.
 */

/** `twox128(pallet) ‖ twox128(item)`. */
export function storagePrefix(pallet: string, item: string): Uint8Array {
  return u8aConcat(xxhashAsU8a(pallet, 128), xxhashAsU8a(item, 128));
}

/** Full key of a storage item: its prefix followed by each already-hashed key part. */
export function storageKey(pallet: string, item: string, ...hashedParts: Uint8Array[]): `0x${string}` {
  return u8aToHex(u8aConcat(storagePrefix(pallet, item), ...hashedParts));
}

/** The storage hashers of FRAME maps. */
export const hasher = {
  identity: (encoded: Uint8Array): Uint8Array => encoded,
  blake2_128Concat: (encoded: Uint8Array): Uint8Array => u8aConcat(blake2AsU8a(encoded, 128), encoded),
  twox64Concat: (encoded: Uint8Array): Uint8Array => u8aConcat(xxhashAsU8a(encoded, 64), encoded),
};

const uintLe = (bitLength: number) => (value: number | bigint): Uint8Array => bnToU8a(value, { bitLength, isLe: true });

/** SCALE encodings of the primitive types the Subtensor storage uses. */
export const scale = {
  u16: uintLe(16),
  u32: uintLe(32),
  u64: uintLe(64),
  u128: uintLe(128),
  compact: (value: number | bigint): Uint8Array => compactToU8a(value),
  /** `Vec<u8>`: compact length, then the bytes. */
  bytes: (bytes: Uint8Array): Uint8Array => u8aConcat(compactToU8a(bytes.length), bytes),
};
