/**
 * What each coordinator job answers, next to the job catalog (coordinator-jobs.ts) that names them:
 * the domains import these, so `jobs/` depends on no domain folder.
 */

/** What one claim sweep did (MaintenanceJob.ExpireClaims; also every use of a claim). */
export interface ExpiryOutcome {
  /** Claims moved `active` → `expired`. */
  expired: number;
  /** Work items those claims held, moved `claimed` → `open`. */
  reopened: number;
}

/** What one lease sweep did (MaintenanceJob.ExpireLeases). */
export interface LeaseExpiryOutcome {
  /** Expired leases returned to `pending`. */
  returned: number;
  /** Submissions decided as `error` because their job ran out of attempts. */
  errored: number;
}

/** PlannerJob.RunAgentic: an LLM failure is an answer the route reports (502), not a failed job. */
export type AgenticPlanOutcome = { outcome: 'created'; created: number } | { outcome: 'llm_failed'; reason: string };

/** Why the served reward snapshot needs a rebuild. */
export type SnapshotStaleness = 'missing' | 'changed' | 'aged';

/** What one rebuild stored (RewardsJob.RebuildSnapshot). */
export interface RebuildOutcome {
  generated_at: string;
  /** Size of the stored JSON in bytes. */
  bytes: number;
}

/** What one periodic check found, and what it stored when it rebuilt (RewardsJob.CheckSnapshot). */
export interface SnapshotCheckOutcome {
  stale: SnapshotStaleness | null;
  rebuilt: RebuildOutcome | null;
}
