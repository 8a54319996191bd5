import { bls12_381 } from '@noble/curves/bls12-381';
import type { Fp2 } from '@noble/curves/abstract/tower';
import type { WeierstrassPoint } from '@noble/curves/abstract/weierstrass';
import { equalBytes } from '@noble/curves/utils';
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';
import { isBytes, ownBytes, roundOf, u64Bytes } from './bytes';
import { TimelockError } from './errors';

export type G1Point = WeierstrassPoint<bigint>;
export type G2Point = WeierstrassPoint<Fp2>;

/** Hash-to-curve domain of drand quicknet (`bls-unchained-g1-rfc9380`), which the tle crate's TinyBLS381 hardcodes. */
export const QUICKNET_DST = 'BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_';
export const G1_COMPRESSED_BYTES = 48;
export const G2_COMPRESSED_BYTES = 96;

const { G1, G2, fields } = bls12_381;
// A constant point object, so noble's per-object memo keeps its Miller-loop lines across verifications.
const MINUS_G2 = G2.Point.BASE.negate();

/**
 * A canonical compressed (zcash flags) point of the prime-order subgroup, not the identity. noble
 * reduces an out-of-range x modulo p where arkworks refuses it, so the point must encode back to
 * the same bytes.
 */
function decodePoint<P extends G1Point | G2Point>(input: Uint8Array, length: number, what: string, fromBytes: (bytes: Uint8Array) => P): P {
  if (!isBytes(input) || input.length !== length) {
    throw new TimelockError('invalid_point', `${what} must be ${length} bytes (compressed), got ${isBytes(input) ? input.length : typeof input}`);
  }
  const bytes = ownBytes(input);
  let point: P;
  try {
    point = fromBytes(bytes);
  } catch (error) {
    throw new TimelockError('invalid_point', `${what} is not a point of the prime-order subgroup: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (point.is0()) throw new TimelockError('invalid_point', `${what} is the point at infinity`);
  if (!equalBytes(point.toBytes(true), bytes)) throw new TimelockError('invalid_point', `${what} is not canonically encoded`);
  return point;
}

export function decodeG1(bytes: Uint8Array, what: string): G1Point {
  return decodePoint(bytes, G1_COMPRESSED_BYTES, what, (b) => G1.Point.fromBytes(b));
}

export function decodeG2(bytes: Uint8Array, what: string): G2Point {
  return decodePoint(bytes, G2_COMPRESSED_BYTES, what, (b) => G2.Point.fromBytes(b));
}

const BEACON_KEY_CACHE_SIZE = 8;
const beaconKeys = new Map<string, G2Point>();

/**
 * The beacon's key as a point. A process seals to one or two beacons, so the decoded point (and,
 * through noble's memo on the object, its Miller-loop lines) is kept instead of being rebuilt per commit.
 */
export function beaconKeyPoint(publicKey: Uint8Array): G2Point {
  if (!isBytes(publicKey)) return decodeG2(publicKey, 'beacon public key');
  const hex = bytesToHex(publicKey);
  const cached = beaconKeys.get(hex);
  if (cached !== undefined) return cached;
  const point = decodeG2(publicKey, 'beacon public key');
  if (beaconKeys.size >= BEACON_KEY_CACHE_SIZE) beaconKeys.delete(beaconKeys.keys().next().value ?? '');
  beaconKeys.set(hex, point);
  return point;
}

/** Q(n) = hash_to_curve_G1(sha256(n as u64 big-endian)): the identity a round's pulse signs. */
export function roundIdentityPoint(round: bigint | number): G1Point {
  return bls12_381.shortSignatures.hash(sha256(u64Bytes(roundOf(round), true)), QUICKNET_DST);
}

/** Q(n) of `round`, compressed G1 (48 bytes). */
export function roundIdentity(round: bigint | number): Uint8Array {
  return roundIdentityPoint(round).toBytes(true);
}

/**
 * Whether `signature` is the beacon's pulse of `round`: e(sig, G2) == e(Q(n), pk), checked as one
 * product of pairings. False for any signature or key that is not a valid point.
 */
export function verifyPulse(round: bigint | number, signature: Uint8Array, beaconPublicKey: Uint8Array): boolean {
  const q = roundIdentityPoint(round);
  let sig: G1Point;
  let pk: G2Point;
  try {
    sig = decodeG1(signature, 'pulse signature');
    pk = beaconKeyPoint(beaconPublicKey);
  } catch (error) {
    if (error instanceof TimelockError) return false;
    throw error;
  }
  const product = bls12_381.pairingBatch([
    { g1: sig, g2: MINUS_G2 },
    { g1: q, g2: pk },
  ]);
  return fields.Fp12.eql(product, fields.Fp12.ONE);
}

/** A beacon whose secret is known: the dev chain's stand-in for drand (DECISIONS §12). */
export interface DevBeacon {
  /** sha256(utf8(seed)) read big-endian, mod r. */
  secretKey: bigint;
  /** sk·G2, compressed (96 bytes). */
  publicKey: Uint8Array;
  /** sk·Q(round), compressed (48 bytes). */
  pulse(round: bigint | number): Uint8Array;
}

export function devBeacon(seed: string): DevBeacon {
  const secretKey = fields.Fr.create(BigInt(`0x${bytesToHex(sha256(utf8ToBytes(seed)))}`));
  if (secretKey === 0n) throw new RangeError('the seed hashes to a zero secret key');
  return {
    secretKey,
    publicKey: G2.Point.BASE.multiply(secretKey).toBytes(true),
    pulse: (round) => roundIdentityPoint(round).multiply(secretKey).toBytes(true),
  };
}
