import { fromHex, toHex, type Hex } from './bytes';
import { MerkleInputError } from './errors';
import { accountIdOf, encodeClaimLeaf, type AccountInput } from './leaf';
import { accountIdToSs58 } from './ss58';
import { hashLeaf, HASH_BYTES, MerkleTree, verifyAuditPath } from './tree';

/** What the tree of an epoch is made of: one entry per hotkey that has a recipient. */
export interface ClaimEntry {
  hotkey: AccountInput;
  recipientColdkey: AccountInput;
  /** Cumulative rao (u64). */
  amount: bigint;
}

/** The proof package of DECISIONS §8, as the claim routes answer it (all numbers that may exceed 2^53 as decimal strings). */
export interface ClaimPackage {
  epoch: number;
  index: number;
  hotkey: string;
  recipient_coldkey: string;
  /** Decimal rao; clients read `amount` first. */
  amount: string;
  /** The same as `amount` (the spec's field name). */
  amount_units: string;
  proof: Hex[];
  root: Hex;
  leaf_count: number;
  leaf_hash: Hex;
}

export interface ClaimEpochTree {
  epoch: number;
  tree: MerkleTree;
  root: Hex;
  /** Sorted by canonical hotkey; `index` = position. */
  entries: { index: number; hotkey: string; recipientColdkey: string; amount: bigint; leaf: Uint8Array }[];
  /** Σ amounts: the `total_rao` of `publish_epoch`. */
  totalAmount: bigint;
  /** The package of the leaf at `index`. */
  packageAt(index: number): ClaimPackage;
}

/**
 * Builds an epoch's tree: entries sorted by canonical hotkey (SS58, prefix 42, compared by code
 * unit), index = position, one leaf each. Two entries for one hotkey are refused.
 */
export function buildClaimEpoch(epoch: number, entries: readonly ClaimEntry[]): ClaimEpochTree {
  if (!Number.isSafeInteger(epoch) || epoch < 0) throw new MerkleInputError(`epoch must be a non-negative integer, got ${epoch}`);
  const canonical = entries.map((entry) => {
    const hotkeyId = accountIdOf(entry.hotkey, 'hotkey');
    const recipientId = accountIdOf(entry.recipientColdkey, 'recipient_coldkey');
    return { hotkeyId, recipientId, hotkey: accountIdToSs58(hotkeyId), recipientColdkey: accountIdToSs58(recipientId), amount: entry.amount };
  });
  canonical.sort((a, b) => (a.hotkey < b.hotkey ? -1 : a.hotkey > b.hotkey ? 1 : 0));
  for (let i = 1; i < canonical.length; i += 1) {
    if (canonical[i].hotkey === canonical[i - 1].hotkey) throw new MerkleInputError(`hotkey ${canonical[i].hotkey} appears twice`);
  }
  const sorted = canonical.map(({ hotkeyId, recipientId, ...entry }, index) => ({
    index,
    ...entry,
    leaf: encodeClaimLeaf({ epoch, index, hotkey: hotkeyId, recipientColdkey: recipientId, amount: entry.amount }),
  }));
  const tree = MerkleTree.fromLeaves(sorted.map((entry) => entry.leaf));
  const root = toHex(tree.root);
  return {
    epoch,
    tree,
    root,
    entries: sorted,
    totalAmount: sorted.reduce((sum, entry) => sum + entry.amount, 0n),
    packageAt(index: number): ClaimPackage {
      const entry = sorted[index];
      if (!entry) throw new MerkleInputError(`no leaf ${index} in epoch ${epoch}`);
      return {
        epoch,
        index,
        hotkey: entry.hotkey,
        recipient_coldkey: entry.recipientColdkey,
        amount: entry.amount.toString(),
        amount_units: entry.amount.toString(),
        proof: tree.proof(index).map(toHex),
        root,
        leaf_count: tree.size,
        leaf_hash: toHex(tree.leafHash(index)),
      };
    },
  };
}

/** A package as a verifier may receive it: `leaf_hash` and `amount_units` are checked when present. */
export interface ClaimPackageInput {
  epoch: number;
  index: number;
  hotkey: string;
  recipient_coldkey: string;
  amount: string;
  amount_units?: string;
  proof: readonly string[];
  root: string;
  leaf_count: number;
  leaf_hash?: string;
}

export type ClaimPackageVerdict = { ok: true; leafHash: Hex } | { ok: false; reason: string };

/** What the verifier trusts, read from the chain (`get_epoch_info`), never from the pool. */
export interface TrustedEpoch {
  root: string | Uint8Array;
  leafCount: number;
}

/**
 * Re-encodes the package's leaf from its fields and checks its audit path. With `trusted`
 * (the epoch's root and leaf count as the contract stores them) the package's own `root` and
 * `leaf_count` are not believed; without it the check is only self-consistency.
 */
export function verifyClaimPackage(pkg: ClaimPackageInput, trusted?: TrustedEpoch): ClaimPackageVerdict {
  try {
    if (pkg.amount_units !== undefined && pkg.amount_units !== pkg.amount) return { ok: false, reason: 'amount and amount_units differ' };
    const leaf = encodeClaimLeaf({ epoch: pkg.epoch, index: pkg.index, hotkey: pkg.hotkey, recipientColdkey: pkg.recipient_coldkey, amount: pkg.amount });
    const leafHash = hashLeaf(leaf);
    if (pkg.leaf_hash !== undefined && toHex(leafHash) !== pkg.leaf_hash.toLowerCase()) return { ok: false, reason: 'leaf_hash does not match the leaf fields' };
    const root = trusted ? (typeof trusted.root === 'string' ? fromHex(trusted.root, HASH_BYTES) : trusted.root) : fromHex(pkg.root, HASH_BYTES);
    const leafCount = trusted ? trusted.leafCount : pkg.leaf_count;
    if (trusted && (toHex(root) !== pkg.root.toLowerCase() || leafCount !== pkg.leaf_count)) {
      return { ok: false, reason: 'the package names another root or leaf count than the chain' };
    }
    const proof = pkg.proof.map((hash) => fromHex(hash, HASH_BYTES));
    if (!verifyAuditPath(leafHash, pkg.index, leafCount, proof, root)) return { ok: false, reason: 'the proof does not lead to the root' };
    return { ok: true, leafHash: toHex(leafHash) };
  } catch (error) {
    if (error instanceof MerkleInputError) return { ok: false, reason: error.message };
    throw error;
  }
}
