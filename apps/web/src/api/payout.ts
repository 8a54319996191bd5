import { checkClaimPackage } from '../logic/claim-check';
import { classifyPayout, type Payout } from '../logic/payout';
import type { Pool } from './services';

/** A hotkey's payout in the newest (claimable, else latest) epoch: the pool's recipient, allocation and leaf, and what the claim contract has paid it. */
export async function readPayout(pool: Pool, hotkey: string): Promise<Payout> {
  const list = await pool.epochs();
  const number = list.default_epoch ?? list.epochs[0] ?? null;
  if (number === null) return classifyPayout({ epoch: null, recipient: null, entry: null, pkg: null, check: null, claimed: null });
  const [epoch, recipient, allocation, pkg, claimed] = await Promise.all([
    pool.epoch(number),
    pool.recipient(hotkey),
    pool.allocation(number),
    pool.claimPackageOrNull(number, hotkey),
    pool.claimed(hotkey),
  ]);
  const entry = allocation.entries.find((e) => e.hotkey === hotkey) ?? null;
  return classifyPayout({ epoch, recipient, entry, pkg, check: pkg ? checkClaimPackage(pkg, epoch) : null, claimed });
}
