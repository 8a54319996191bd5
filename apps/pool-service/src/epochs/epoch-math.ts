import type { AllocationDocument } from '@rcs/contracts';
import { cumulate, splitEpoch, type SplitCompetition, type SplitPoolPolicy } from '@rcs/merkle';

/**
 * An epoch's allocation (DECISIONS.md §8) from its stored inputs: the split and cumulative arithmetic
 * of `@rcs/merkle` (`splitEpoch`, `cumulate`; shared with the payout verifier) and the allocation
 * document. No I/O, no Nest: the rollover feeds it stored inputs, so a re-run computes the same epoch.
 */

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export interface EpochAllocationInput {
  epoch: number;
  budget: bigint;
  carriedIn: bigint;
  snapshot: { sha256: string; generatedAt: string; policyVersion: number; stale: boolean } | null;
  competitions: readonly SplitCompetition[];
  pools: readonly SplitPoolPolicy[];
  /** Cumulative units per hotkey after the previous epoch. */
  previousCumulative: ReadonlyMap<string, bigint>;
  /** Payout recipient per hotkey (canonical: stored, else declared); hotkeys without one get no leaf but keep accruing. */
  recipients: ReadonlyMap<string, string>;
  /** When `recipients` were read (ISO): the payout verifier judges each leaf's recipient as of then. */
  recipientsAt: string;
}

export interface EpochAllocation {
  document: AllocationDocument;
  /** Sorted by hotkey: every hotkey with a positive cumulative. */
  rows: { hotkey: string; units: bigint; cumulative: bigint; recipientColdkey: string | null }[];
  /** The tree's inputs: rows with a recipient. */
  leaves: { hotkey: string; recipientColdkey: string; amount: bigint }[];
  carriedOver: bigint;
}

/** Everything an epoch stores, computed from its inputs alone. */
export function allocateEpoch(input: EpochAllocationInput): EpochAllocation {
  const split = splitEpoch(input.budget + input.carriedIn, input.competitions, input.pools);
  const cumulative = cumulate(input.previousCumulative, split.units);
  const rows = [...cumulative.entries()]
    .filter(([, amount]) => amount > 0n)
    .sort(([a], [b]) => byText(a, b))
    .map(([hotkey, total]) => ({ hotkey, units: split.units.get(hotkey) ?? 0n, cumulative: total, recipientColdkey: input.recipients.get(hotkey) ?? null }));
  const document: AllocationDocument = {
    epoch: input.epoch,
    snapshot_sha256: input.snapshot?.sha256 ?? null,
    snapshot_generated_at: input.snapshot?.generatedAt ?? null,
    snapshot_stale: input.snapshot?.stale ?? false,
    policy_version: input.snapshot?.policyVersion ?? null,
    budget: input.budget.toString(),
    carried_in: input.carriedIn.toString(),
    carried_over: split.carried.toString(),
    recipients_at: input.recipientsAt,
    entries: rows.map((row) => ({
      hotkey: row.hotkey,
      recipient_coldkey: row.recipientColdkey,
      units: row.units.toString(),
      cumulative: row.cumulative.toString(),
      competitions: (split.competitions.get(row.hotkey) ?? []).map((c) => ({ competition_id: c.competitionId, slug: c.slug, score: c.score, units: c.units.toString() })),
    })),
  };
  const leaves = rows.flatMap((row) => (row.recipientColdkey === null ? [] : [{ hotkey: row.hotkey, recipientColdkey: row.recipientColdkey, amount: row.cumulative }]));
  return { document, rows, leaves, carriedOver: split.carried };
}
