import { fromHex } from './bytes';
import { MerkleInputError } from './errors';
import { ss58ToAccountId } from './ss58';

/** Bytes of one leaf: the SCALE encoding of the claim contract's `ClaimData` without its proof. */
export const CLAIM_LEAF_BYTES = 84;

const U32_MAX = 0xffff_ffff;
const U64_MAX = (1n << 64n) - 1n;

/** A 32-byte account id, its `0x…` hex, or an SS58 address of any prefix. */
export type AccountInput = Uint8Array | string;

/** The fields of one claim leaf (DECISIONS §8): `ClaimData {epoch, index, hotkey, recipient_coldkey, amount}`. */
export interface ClaimLeaf {
  /** u64: the epoch (window number). */
  epoch: bigint | number;
  /** u32: the leaf's position in the epoch's tree. */
  index: number;
  hotkey: AccountInput;
  recipientColdkey: AccountInput;
  /** u64 rao: the hotkey's cumulative amount up to this epoch. */
  amount: bigint | number | string;
}

export function accountIdOf(account: AccountInput, what = 'account'): Uint8Array {
  if (typeof account !== 'string') {
    if (account.length !== 32) throw new MerkleInputError(`${what} must be 32 bytes, got ${account.length}`);
    return account;
  }
  return account.startsWith('0x') ? fromHex(account, 32) : ss58ToAccountId(account);
}

function u64Of(value: bigint | number | string, what: string): bigint {
  let big: bigint;
  if (typeof value === 'bigint') big = value;
  else if (typeof value === 'number' && Number.isSafeInteger(value)) big = BigInt(value);
  else if (typeof value === 'string' && /^\d{1,20}$/.test(value)) big = BigInt(value);
  else throw new MerkleInputError(`${what} must be a u64 integer, got ${JSON.stringify(String(value))}`);
  if (big < 0n || big > U64_MAX) throw new MerkleInputError(`${what} out of u64 range: ${big}`);
  return big;
}

function writeU64Le(out: Uint8Array, offset: number, value: bigint): void {
  for (let i = 0; i < 8; i += 1) out[offset + i] = Number((value >> BigInt(8 * i)) & 0xffn);
}

/** `epoch u64 LE ‖ index u32 LE ‖ hotkey 32 ‖ recipient_coldkey 32 ‖ amount u64 LE` (84 bytes). */
export function encodeClaimLeaf(leaf: ClaimLeaf): Uint8Array {
  const epoch = u64Of(leaf.epoch, 'epoch');
  if (!Number.isInteger(leaf.index) || leaf.index < 0 || leaf.index > U32_MAX) {
    throw new MerkleInputError(`index must be a u32 integer, got ${String(leaf.index)}`);
  }
  const amount = u64Of(leaf.amount, 'amount');
  const out = new Uint8Array(CLAIM_LEAF_BYTES);
  writeU64Le(out, 0, epoch);
  out[8] = leaf.index & 0xff;
  out[9] = (leaf.index >>> 8) & 0xff;
  out[10] = (leaf.index >>> 16) & 0xff;
  out[11] = (leaf.index >>> 24) & 0xff;
  out.set(accountIdOf(leaf.hotkey, 'hotkey'), 12);
  out.set(accountIdOf(leaf.recipientColdkey, 'recipient_coldkey'), 44);
  writeU64Le(out, 76, amount);
  return out;
}

/** The fields of an 84-byte leaf (account ids as 32-byte arrays). */
export function decodeClaimLeaf(bytes: Uint8Array): { epoch: bigint; index: number; hotkey: Uint8Array; recipientColdkey: Uint8Array; amount: bigint } {
  if (bytes.length !== CLAIM_LEAF_BYTES) throw new MerkleInputError(`a claim leaf is ${CLAIM_LEAF_BYTES} bytes, got ${bytes.length}`);
  const u64At = (offset: number): bigint => {
    let value = 0n;
    for (let i = 7; i >= 0; i -= 1) value = (value << 8n) | BigInt(bytes[offset + i]);
    return value;
  };
  return {
    epoch: u64At(0),
    index: (bytes[8] | (bytes[9] << 8) | (bytes[10] << 16) | (bytes[11] << 24)) >>> 0,
    hotkey: bytes.slice(12, 44),
    recipientColdkey: bytes.slice(44, 76),
    amount: u64At(76),
  };
}
