/*
 * An epoch's allocation document: the receipts the pool serves at `/claims/epoch/{e}/allocation`
 * byte for byte as `allocation_sha256` (DECISIONS §8 "Evidence"). Amounts are rao as decimal strings.
 * The pool writes it; the web UI reads it.
 */

export interface AllocationEntry {
  hotkey: string;
  recipient_coldkey: string | null;
  units: string;
  cumulative: string;
  competitions: { competition_id: string; slug: string; score: number; units: string }[];
}

/** The receipts of an epoch; serialised once and served byte for byte. */
export interface AllocationDocument {
  epoch: number;
  snapshot_sha256: string | null;
  snapshot_generated_at: string | null;
  /** True when the coordinator could not be reached and the last stored snapshot was used. */
  snapshot_stale: boolean;
  policy_version: number | null;
  budget: string;
  /** Carried in from the previous epoch (part of what this epoch split). */
  carried_in: string;
  /** Carried to the next epoch (pools without a scored miner). */
  carried_over: string;
  /** When the leaves' recipients were read (ISO): each is the newest validly signed one of its hotkey as of then (DECISIONS §16). */
  recipients_at: string;
  entries: AllocationEntry[];
}
