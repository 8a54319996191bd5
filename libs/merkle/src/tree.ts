import { equalBytes } from '@noble/curves/utils';
import { blake2b } from '@noble/hashes/blake2';
import { MerkleInputError } from './errors';

/** Bytes of every hash: BLAKE2b with a 256-bit digest. */
export const HASH_BYTES = 32;
/** RFC 9162 §2.1.1 domain separation: leaves and interior nodes can never be confused. */
export const LEAF_PREFIX = 0x00;
export const NODE_PREFIX = 0x01;

const hash = (input: Uint8Array): Uint8Array => blake2b(input, { dkLen: HASH_BYTES });

/** `H(0x00 ‖ leaf)`. */
export function hashLeaf(leaf: Uint8Array): Uint8Array {
  const input = new Uint8Array(1 + leaf.length);
  input[0] = LEAF_PREFIX;
  input.set(leaf, 1);
  return hash(input);
}

/** `H(0x01 ‖ left ‖ right)`. */
export function hashNode(left: Uint8Array, right: Uint8Array): Uint8Array {
  const input = new Uint8Array(1 + 2 * HASH_BYTES);
  input[0] = NODE_PREFIX;
  input.set(left, 1);
  input.set(right, 1 + HASH_BYTES);
  return hash(input);
}

/** The root of the empty tree: the hash of the empty string (RFC 9162 §2.1.1). */
export function emptyRoot(): Uint8Array {
  return hash(new Uint8Array(0));
}

/**
 * An RFC 9162 Merkle tree: the left subtree holds the largest power of two of leaves below n, the
 * last leaf is never duplicated. Built bottom-up: at every level an unpaired last node moves up
 * unchanged, which yields exactly the RFC's recursive shape. Levels are kept, so an audit path is
 * a walk up them.
 */
export class MerkleTree {
  /** levels[0] holds the leaf hashes; each level is one buffer of 32-byte hashes. */
  readonly #levels: Uint8Array[];
  readonly size: number;

  private constructor(leafHashes: Uint8Array, size: number) {
    this.size = size;
    this.#levels = [leafHashes];
    const input = new Uint8Array(1 + 2 * HASH_BYTES);
    input[0] = NODE_PREFIX;
    let level = leafHashes;
    let count = size;
    while (count > 1) {
      const parents = Math.ceil(count / 2);
      const next = new Uint8Array(parents * HASH_BYTES);
      for (let i = 0; i + 1 < count; i += 2) {
        input.set(level.subarray(i * HASH_BYTES, (i + 2) * HASH_BYTES), 1);
        next.set(hash(input), (i / 2) * HASH_BYTES);
      }
      if (count % 2 === 1) next.set(level.subarray((count - 1) * HASH_BYTES, count * HASH_BYTES), (parents - 1) * HASH_BYTES);
      this.#levels.push(next);
      level = next;
      count = parents;
    }
  }

  /** Hashes every leaf (`H(0x00 ‖ leaf)`) and builds the tree. */
  static fromLeaves(leaves: readonly Uint8Array[]): MerkleTree {
    const hashes = new Uint8Array(leaves.length * HASH_BYTES);
    leaves.forEach((leaf, i) => hashes.set(hashLeaf(leaf), i * HASH_BYTES));
    return new MerkleTree(hashes, leaves.length);
  }

  /** Builds the tree over already hashed leaves. */
  static fromLeafHashes(leafHashes: readonly Uint8Array[]): MerkleTree {
    const hashes = new Uint8Array(leafHashes.length * HASH_BYTES);
    leafHashes.forEach((leafHash, i) => {
      if (leafHash.length !== HASH_BYTES) throw new MerkleInputError(`leaf hash ${i} is ${leafHash.length} bytes, not ${HASH_BYTES}`);
      hashes.set(leafHash, i * HASH_BYTES);
    });
    return new MerkleTree(hashes, leafHashes.length);
  }

  get root(): Uint8Array {
    if (this.size === 0) return emptyRoot();
    return this.#levels[this.#levels.length - 1].slice(0, HASH_BYTES);
  }

  leafHash(index: number): Uint8Array {
    this.#checkIndex(index);
    return this.#levels[0].slice(index * HASH_BYTES, (index + 1) * HASH_BYTES);
  }

  /** The RFC 9162 §2.1.3.1 audit path of a leaf: sibling hashes from the leaf's level up to the root's children. */
  proof(index: number): Uint8Array[] {
    this.#checkIndex(index);
    const path: Uint8Array[] = [];
    let position = index;
    for (let depth = 0; depth < this.#levels.length - 1; depth += 1) {
      const count = this.#levels[depth].length / HASH_BYTES;
      const sibling = position ^ 1;
      if (sibling < count) path.push(this.#levels[depth].slice(sibling * HASH_BYTES, (sibling + 1) * HASH_BYTES));
      position >>= 1;
    }
    return path;
  }

  #checkIndex(index: number): void {
    if (!Number.isInteger(index) || index < 0 || index >= this.size) {
      throw new MerkleInputError(`leaf index ${index} outside a tree of ${this.size} leaves`);
    }
  }
}

/** The root of the tree over these leaves (each hashed as a leaf). */
export function merkleRoot(leaves: readonly Uint8Array[]): Uint8Array {
  return MerkleTree.fromLeaves(leaves).root;
}

/**
 * RFC 9162 §2.1.3.2: whether `proof` leads from the leaf hash at `index` of a tree of `treeSize`
 * leaves to `root`. A wrong index, order, or any extra or missing hash fails. RFC 9162 does not bind
 * the size into the root, so `treeSize` must come from where the root does (the contract), not the prover.
 */
export function verifyAuditPath(leafHash: Uint8Array, index: number, treeSize: number, proof: readonly Uint8Array[], root: Uint8Array): boolean {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(treeSize) || index < 0 || index >= treeSize) return false;
  if (leafHash.length !== HASH_BYTES || root.length !== HASH_BYTES) return false;
  let fn = index;
  let sn = treeSize - 1;
  let r = leafHash;
  for (const p of proof) {
    if (p.length !== HASH_BYTES || sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = hashNode(p, r);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      r = hashNode(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && equalBytes(r, root);
}
