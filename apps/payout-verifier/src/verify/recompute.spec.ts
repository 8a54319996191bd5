import { randomBytes } from 'node:crypto';
import { encodeAddress } from '@polkadot/util-crypto';
import { buildClaimEpoch } from '@rcs/merkle';
import { canonicalTree } from './recompute';

describe('the root rebuilt from canonically spelled leaves', () => {
  const address = (prefix = 42) => encodeAddress(new Uint8Array(randomBytes(32)), prefix);
  const leavesOf = (n: number, recipients: string[]) =>
    Array.from({ length: n }, () => address())
      .sort()
      .map((hotkey, i) => ({ hotkey, recipientColdkey: recipients[i % recipients.length], amount: BigInt(i * 1_000_003 + 1) }));

  it('is what buildClaimEpoch answers for the same leaves', () => {
    for (const n of [0, 1, 2, 3, 7, 64, 301]) {
      const leaves = leavesOf(n, [address(), address(), address()]);
      const tree = buildClaimEpoch(9, leaves);
      expect(canonicalTree(9, leaves)).toEqual({ root: tree.root, num_of_leaves: tree.entries.length, total_rao: tree.totalAmount.toString() });
    }
  });

  it('leaves to buildClaimEpoch anything else: another prefix, a bad checksum, an order or amount it would refuse', () => {
    const leaves = leavesOf(5, [address()]);
    const cases = [
      leaves.map((leaf, i) => (i === 2 ? { ...leaf, recipientColdkey: address(0) } : leaf)),
      leaves.map((leaf, i) => (i === 3 ? { ...leaf, hotkey: leaf.hotkey.slice(0, 47) + (leaf.hotkey[47] === 'z' ? 'y' : 'z') } : leaf)),
      [leaves[1], leaves[0], ...leaves.slice(2)],
      [leaves[0], leaves[0]],
      leaves.map((leaf, i) => (i === 4 ? { ...leaf, amount: 1n << 64n } : leaf)),
    ];
    for (const tampered of cases) expect(canonicalTree(9, tampered)).toBeNull();
  });
});
