import { encodeAddress } from '@polkadot/util-crypto';
import { buildClaimEpoch, verifyClaimPackage, type ClaimPackage } from './claim-epoch';
import { encodeClaimLeaf } from './leaf';

const account = (seed: number): Uint8Array => Uint8Array.from({ length: 32 }, (_, i) => (seed * 13 + i * 29 + 1) & 0xff);
const entries = Array.from({ length: 9 }, (_, i) => ({ hotkey: account(i), recipientColdkey: account(100 + i), amount: BigInt(1_000 + i) }));

describe('buildClaimEpoch / verifyClaimPackage', () => {
  const epoch = buildClaimEpoch(12, entries);

  it('sorts leaves by canonical hotkey, indexes by position and totals the amounts', () => {
    const hotkeys = epoch.entries.map((entry) => entry.hotkey);
    expect(hotkeys).toEqual([...hotkeys].sort());
    expect(hotkeys).toEqual(entries.map((entry) => encodeAddress(entry.hotkey, 42)).sort());
    expect(epoch.entries.map((entry) => entry.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(epoch.totalAmount).toBe(entries.reduce((sum, entry) => sum + entry.amount, 0n));
    const first = epoch.entries[0];
    expect(first.leaf).toEqual(encodeClaimLeaf({ epoch: 12, index: 0, hotkey: first.hotkey, recipientColdkey: first.recipientColdkey, amount: first.amount }));
  });

  it('gives a package per leaf that verifies against the trusted root, with amount and amount_units alike', () => {
    for (let i = 0; i < epoch.entries.length; i += 1) {
      const pkg = epoch.packageAt(i);
      expect(pkg.amount).toBe(pkg.amount_units);
      expect(pkg.leaf_count).toBe(9);
      expect(verifyClaimPackage(pkg)).toEqual({ ok: true, leafHash: pkg.leaf_hash });
      expect(verifyClaimPackage(pkg, { root: epoch.root, leafCount: 9 }).ok).toBe(true);
    }
  });

  it('refuses a package with a tampered amount, recipient, hotkey, epoch, index, proof or root', () => {
    const pkg = epoch.packageAt(4);
    const other = epoch.packageAt(5);
    const trusted = { root: epoch.root, leafCount: 9 };
    const tampered: Array<[string, ClaimPackage]> = [
      ['amount', { ...pkg, amount: String(BigInt(pkg.amount) + 1n), amount_units: String(BigInt(pkg.amount) + 1n) }],
      ['amount only', { ...pkg, amount: String(BigInt(pkg.amount) + 1n) }],
      ['recipient', { ...pkg, recipient_coldkey: other.recipient_coldkey }],
      ['hotkey', { ...pkg, hotkey: other.hotkey }],
      ['epoch', { ...pkg, epoch: 13 }],
      ['index', { ...pkg, index: 5 }],
      ['proof of another leaf', { ...pkg, proof: other.proof }],
      ['proof hash flipped', { ...pkg, proof: [`0x${pkg.proof[0].slice(2, 3) === '0' ? '1' : '0'}${pkg.proof[0].slice(3)}`, ...pkg.proof.slice(1)] }],
      ['proof truncated', { ...pkg, proof: pkg.proof.slice(1) }],
      ['leaf_count', { ...pkg, leaf_count: 8 }],
      ['leaf_hash', { ...pkg, leaf_hash: other.leaf_hash }],
    ];
    for (const [what, forged] of tampered) {
      expect({ what, ok: verifyClaimPackage(forged, trusted).ok }).toEqual({ what, ok: false });
      // Without the package's own leaf_hash, the proof alone must catch it.
      const { leaf_hash: _leafHash, ...bare } = forged;
      if (what !== 'leaf_hash') expect({ what, ok: verifyClaimPackage(bare, trusted).ok }).toEqual({ what, ok: false });
    }
    // A pool that builds its own tree around a forged leaf can make it self-consistent, but not match the chain's root.
    const forgedEpoch = buildClaimEpoch(12, entries.map((entry, i) => (i === 0 ? { ...entry, amount: entry.amount * 1000n } : entry)));
    const forgedPackage = forgedEpoch.packageAt(forgedEpoch.entries.findIndex((entry) => entry.amount > 100_000n));
    expect(verifyClaimPackage(forgedPackage).ok).toBe(true);
    expect(verifyClaimPackage(forgedPackage, trusted)).toEqual({ ok: false, reason: 'the package names another root or leaf count than the chain' });
    expect(verifyClaimPackage({ ...forgedPackage, root: epoch.root }, trusted).ok).toBe(false);
  });

  it('answers a malformed package with a reason instead of throwing', () => {
    const pkg = epoch.packageAt(0);
    expect(verifyClaimPackage({ ...pkg, proof: ['0x12'] })).toMatchObject({ ok: false, reason: expect.stringMatching(/32 bytes/) });
    expect(verifyClaimPackage({ ...pkg, hotkey: 'not-an-address' })).toMatchObject({ ok: false });
    expect(verifyClaimPackage({ ...pkg, amount: '-5', amount_units: '-5' })).toMatchObject({ ok: false, reason: expect.stringMatching(/u64/) });
  });

  it('refuses a hotkey twice in one epoch', () => {
    expect(() => buildClaimEpoch(1, [entries[0], { ...entries[0], hotkey: encodeAddress(entries[0].hotkey, 0) }])).toThrow(/appears twice/);
  });
});
