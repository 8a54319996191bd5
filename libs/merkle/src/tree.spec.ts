import { blake2b } from '@noble/hashes/blake2';
import { emptyRoot, hashLeaf, MerkleTree, verifyAuditPath } from './tree';

// The reference: RFC 9162 §2.1 written the way the RFC writes it, recursively, with its own hashing.
const H = (...parts: Uint8Array[]): Uint8Array => {
  const input = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    input.set(part, offset);
    offset += part.length;
  }
  return blake2b(input, { dkLen: 32 });
};
const ZERO = Uint8Array.of(0);
const ONE = Uint8Array.of(1);
const split = (n: number): number => {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
};
const mth = (leaves: Uint8Array[]): Uint8Array => {
  if (leaves.length === 0) return H();
  if (leaves.length === 1) return H(ZERO, leaves[0]);
  const k = split(leaves.length);
  return H(ONE, mth(leaves.slice(0, k)), mth(leaves.slice(k)));
};
const path = (m: number, leaves: Uint8Array[]): Uint8Array[] => {
  if (leaves.length <= 1) return [];
  const k = split(leaves.length);
  return m < k ? [...path(m, leaves.slice(0, k)), mth(leaves.slice(k))] : [...path(m - k, leaves.slice(k)), mth(leaves.slice(0, k))];
};
const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
const leavesOf = (n: number): Uint8Array[] => Array.from({ length: n }, (_, i) => Uint8Array.from([i, i * 7, 255 - i, 3]));

describe('MerkleTree (RFC 9162 shape, BLAKE2b-256)', () => {
  it.each(Array.from({ length: 17 }, (_, i) => i + 1))('%i leaves: root and every audit path equal the recursive reference', (n) => {
    const leaves = leavesOf(n);
    const tree = MerkleTree.fromLeaves(leaves);
    expect(tree.size).toBe(n);
    expect(hex(tree.root)).toBe(hex(mth(leaves)));
    for (let i = 0; i < n; i += 1) {
      expect(hex(tree.leafHash(i))).toBe(hex(H(ZERO, leaves[i])));
      expect(tree.proof(i).map(hex)).toEqual(path(i, leaves).map(hex));
      expect(verifyAuditPath(tree.leafHash(i), i, n, tree.proof(i), tree.root)).toBe(true);
    }
  });

  it('never duplicates the last leaf: 3 leaves hash as ((a,b),c), and 3 differs from 4 with the last repeated', () => {
    const [a, b, c] = leavesOf(3).map((leaf) => H(ZERO, leaf));
    const tree = MerkleTree.fromLeaves(leavesOf(3));
    expect(hex(tree.root)).toBe(hex(H(ONE, H(ONE, a, b), c)));
    expect(tree.proof(2).map(hex)).toEqual([hex(H(ONE, a, b))]);
    const duplicated = MerkleTree.fromLeaves([...leavesOf(3), leavesOf(3)[2]]);
    expect(hex(duplicated.root)).not.toBe(hex(tree.root));
  });

  it('the empty tree has the hash of the empty string as its root', () => {
    expect(hex(MerkleTree.fromLeaves([]).root)).toBe(hex(H()));
    expect(hex(emptyRoot())).toBe('0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8');
  });

  it('refuses a proof with the wrong index, a size of another shape, an extra or a missing hash, or swapped siblings', () => {
    const n = 11;
    const tree = MerkleTree.fromLeaves(leavesOf(n));
    for (let i = 0; i < n; i += 1) {
      const proof = tree.proof(i);
      const leafHash = tree.leafHash(i);
      expect(verifyAuditPath(leafHash, (i + 1) % n, n, proof, tree.root)).toBe(false);
      // A size whose tree has another shape around the leaf (RFC 9162 does not bind the size into the root: it comes from the chain).
      if (i < n - 1 && path(i, leavesOf(n - 1)).length !== proof.length) expect(verifyAuditPath(leafHash, i, n - 1, proof, tree.root)).toBe(false);
      expect(verifyAuditPath(leafHash, i, n, [...proof, tree.root], tree.root)).toBe(false);
      expect(verifyAuditPath(leafHash, i, n, proof.slice(0, -1), tree.root)).toBe(false);
      if (proof.length > 1) expect(verifyAuditPath(leafHash, i, n, [proof[1], proof[0], ...proof.slice(2)], tree.root)).toBe(false);
      const flipped = proof.map((hash) => hash.slice());
      flipped[0][0] ^= 1;
      expect(verifyAuditPath(leafHash, i, n, flipped, tree.root)).toBe(false);
    }
    expect(verifyAuditPath(tree.leafHash(0), -1, n, tree.proof(0), tree.root)).toBe(false);
    expect(verifyAuditPath(tree.leafHash(0), n, n, tree.proof(0), tree.root)).toBe(false);
  });

  it('resists second preimages: no inner node verifies as a leaf, because leaves and nodes hash under different prefixes', () => {
    for (let n = 2; n <= 17; n += 1) {
      const leaves = leavesOf(n);
      const tree = MerkleTree.fromLeaves(leaves);
      // Every inner node over leaves [lo, hi): its preimage (left ‖ right) presented as one leaf
      // at position lo of a tree where that subtree is a single leaf must not reach the root.
      const visit = (lo: number, hi: number): void => {
        if (hi - lo < 2) return;
        const k = split(hi - lo);
        const preimage = new Uint8Array([...mth(leaves.slice(lo, lo + k)), ...mth(leaves.slice(lo + k, hi))]);
        const node = mth(leaves.slice(lo, hi));
        expect(hex(hashLeaf(preimage))).not.toBe(hex(node));
        // The size and index the forged tree would have if the subtree collapsed into one leaf.
        const forgedSize = n - (hi - lo) + 1;
        const forgedPath = path(lo, [...leaves.slice(0, lo), preimage, ...leaves.slice(hi)]);
        expect(verifyAuditPath(hashLeaf(preimage), lo, forgedSize, forgedPath, tree.root)).toBe(false);
        visit(lo, lo + k);
        visit(lo + k, hi);
      };
      visit(0, n);
    }
  });
});
