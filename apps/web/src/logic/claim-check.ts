import type { ClaimEpochDto, ClaimPackageDto } from '@rcs/contracts';
import { verifyClaimPackage } from '@rcs/merkle';

export type ClaimCheck = { ok: true; message: string } | { ok: false; message: string };

/**
 * Checks a claim package in the browser against the epoch's published root and leaf count (read from
 * the epoch route, not from the package): the leaf is re-encoded and the audit path walked to the root.
 */
export function checkClaimPackage(pkg: ClaimPackageDto, epoch: ClaimEpochDto): ClaimCheck {
  if (pkg.epoch !== epoch.epoch) return { ok: false, message: `not verified: the package is for epoch ${pkg.epoch}, not epoch ${epoch.epoch}` };
  const verdict = verifyClaimPackage(pkg, { root: epoch.root, leafCount: epoch.leaf_count });
  return verdict.ok
    ? { ok: true, message: `verified against root ${epoch.root.toLowerCase()}` }
    : { ok: false, message: `not verified: ${verdict.reason}` };
}
