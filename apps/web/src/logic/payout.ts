import type { AllocationEntry, ClaimEpochDto, ClaimPackageDto, RecipientDto } from '@rcs/contracts';
import type { ClaimCheck } from './claim-check';

/** What a hotkey's payout is in the newest epoch, told apart as a miner needs it. */
export type Payout =
  /** No epoch stored yet. */
  | { kind: 'no_epoch' }
  /** The pool has never seen the hotkey and no epoch allocates to it. */
  | { kind: 'unknown_hotkey'; epoch: number }
  /** Known (registered, or a recipient set) but nothing allocated to it yet. */
  | { kind: 'nothing_earned'; epoch: number; recipient: RecipientDto | null }
  /** It has earned, but no leaf carries it: no recipient was stored when the epoch was made. */
  | { kind: 'no_recipient'; epoch: number; cumulative: string; recipient: RecipientDto | null }
  | {
      kind: 'leaf';
      epoch: ClaimEpochDto;
      pkg: ClaimPackageDto;
      check: ClaimCheck;
      recipient: RecipientDto | null;
      /** Rao the claim contract has paid the hotkey so far (its `claimed_cumulative`); null when the contract cannot be read now. */
      claimed: string | null;
      /** Rao a claim pays now: the leaf amount less what was claimed, 0 unless the epoch is the published, claimable one. */
      claimable: string | null;
    };

/** Leaf amount less claimed, never below 0; null when the claimed amount is not known; "0" for an epoch that is not claimable. */
export function claimableNow(amount: string, claimed: string | null, status: string): string | null {
  if (status !== 'published') return '0';
  if (claimed === null) return null;
  const left = BigInt(amount) - BigInt(claimed);
  return (left > 0n ? left : 0n).toString();
}

export interface PayoutInputs {
  epoch: ClaimEpochDto | null;
  recipient: RecipientDto | null;
  entry: AllocationEntry | null;
  pkg: ClaimPackageDto | null;
  check: ClaimCheck | null;
  claimed: string | null;
}

/** Tells the payout cases apart from what the pool answered. */
export function classifyPayout({ epoch, recipient, entry, pkg, check, claimed }: PayoutInputs): Payout {
  if (epoch === null) return { kind: 'no_epoch' };
  if (pkg && check) return { kind: 'leaf', epoch, pkg, check, recipient, claimed, claimable: claimableNow(pkg.amount, claimed, epoch.status) };
  if (entry && BigInt(entry.cumulative) > 0n) return { kind: 'no_recipient', epoch: epoch.epoch, cumulative: entry.cumulative, recipient };
  if (recipient === null && entry === null) return { kind: 'unknown_hotkey', epoch: epoch.epoch };
  return { kind: 'nothing_earned', epoch: epoch.epoch, recipient };
}
