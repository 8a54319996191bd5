import { checkClaimPackage } from '../logic/claim-check';
import { claimedSoFar, classifyPayout, type Payout } from '../logic/payout';
import type { Pool } from './services';

/** How many of the newest epochs' claim ledgers are searched for a hotkey's latest claim. */
const LEDGERS_READ = 10;

/** A hotkey's payout in the newest (claimable, else latest) epoch: the pool's recipient, allocation, leaf and claim ledger composed. */
export async function readPayout(pool: Pool, hotkey: string): Promise<Payout> {
  const list = await pool.epochs();
  const number = list.default_epoch ?? list.epochs[0] ?? null;
  if (number === null) return classifyPayout({ epoch: null, recipient: null, entry: null, pkg: null, check: null, claimed: null });
  const [epoch, recipient, allocation, pkg] = await Promise.all([pool.epoch(number), pool.recipient(hotkey), pool.allocation(number), pool.claimPackageOrNull(number, hotkey)]);
  const entry = allocation.entries.find((e) => e.hotkey === hotkey) ?? null;
  let claimed: string | null = null;
  if (pkg) claimed = claimedSoFar(await Promise.all(list.epochs.slice(0, LEDGERS_READ).map((n) => pool.ledger(n))), hotkey);
  return classifyPayout({ epoch, recipient, entry, pkg, check: pkg ? checkClaimPackage(pkg, epoch) : null, claimed });
}
