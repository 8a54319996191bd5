import type { ClaimEpochDto } from '@rcs/contracts';
import { buildClaimEpoch } from '@rcs/merkle';
import { checkClaimPackage } from './claim-check';

const account = (seed: number): Uint8Array => Uint8Array.from({ length: 32 }, (_, i) => (seed * 7 + i * 31 + 3) & 0xff);
const tree = buildClaimEpoch(5, Array.from({ length: 5 }, (_, i) => ({ hotkey: account(i), recipientColdkey: account(50 + i), amount: BigInt(10 + i) })));
const epoch = { epoch: 5, root: tree.root, leaf_count: 5 } as ClaimEpochDto;

describe('checkClaimPackage', () => {
  it('verifies a real package against the epoch root and names the root', () => {
    expect(checkClaimPackage(tree.packageAt(3), epoch)).toEqual({ ok: true, message: `verified against root ${tree.root}` });
  });

  it('says why not when the amount, the proof, the epoch or the root do not match', () => {
    const pkg = tree.packageAt(2);
    expect(checkClaimPackage({ ...pkg, amount: '999', amount_units: '999' }, epoch)).toEqual({ ok: false, message: 'not verified: leaf_hash does not match the leaf fields' });
    expect(checkClaimPackage({ ...pkg, proof: [...pkg.proof].reverse() }, epoch)).toEqual({ ok: false, message: 'not verified: the proof does not lead to the root' });
    expect(checkClaimPackage(pkg, { ...epoch, epoch: 6 })).toEqual({ ok: false, message: 'not verified: the package is for epoch 5, not epoch 6' });
    expect(checkClaimPackage(pkg, { ...epoch, root: `0x${'00'.repeat(32)}` })).toEqual({
      ok: false,
      message: 'not verified: the package names another root or leaf count than the chain',
    });
  });
});
