import type { DashboardDecisionDto, VerificationSummaryDto } from '@rcs/contracts';
import { rankByRule, type TaskRule } from './task-rule';

/** One accepted result of a competition as the page ranks it. */
export interface AcceptedResult {
  submission_id: string;
  miner_hotkey: string | null;
  metric_value: number;
  /** The verified secondary metric (from the validator's observed metrics); null when the task has none or it is unknown. */
  secondary_value: number | null;
  decided_at: string;
}

/**
 * A competition's accepted results, best first by the task's own rule (its band and secondary metric,
 * see task-rule.ts; ties: the earlier decision first, as the original among duplicates). Validator
 * verifications give standard and centerless results with their observed metrics; decisions also cover
 * peer_evaluation ones and name the miner. One row per submission.
 */
export function rankAccepted(
  taskId: string,
  rule: TaskRule,
  verifications: readonly VerificationSummaryDto[],
  decisions: readonly DashboardDecisionDto[],
): AcceptedResult[] {
  const rows = new Map<string, AcceptedResult>();
  for (const v of verifications) {
    if (v.task_id !== taskId || String(v.status) !== 'accepted' || v.metric_value === null) continue;
    const known = rows.get(v.submission_id);
    if (!known || known.decided_at < v.created_at) {
      const observed = rule.secondary === null ? undefined : (v.observed_metrics ?? {})[rule.secondary.name];
      const secondary = typeof observed === 'number' && Number.isFinite(observed) ? observed : null;
      rows.set(v.submission_id, { submission_id: v.submission_id, miner_hotkey: null, metric_value: v.metric_value, secondary_value: secondary, decided_at: v.created_at });
    }
  }
  for (const d of decisions) {
    if (d.task_id !== taskId || String(d.status) !== 'accepted' || d.verified_metric_value === null) continue;
    const known = rows.get(d.submission_id);
    rows.set(d.submission_id, {
      submission_id: d.submission_id,
      miner_hotkey: d.miner_hotkey,
      metric_value: d.verified_metric_value,
      secondary_value: known?.secondary_value ?? null,
      decided_at: known?.decided_at ?? d.decided_at,
    });
  }
  const earlier = (a: AcceptedResult, b: AcceptedResult) => (a.decided_at < b.decided_at ? -1 : a.decided_at > b.decided_at ? 1 : 0);
  return rankByRule([...rows.values()], rule, (row) => ({ metric: row.metric_value, secondary: row.secondary_value }), earlier);
}

/** Fills in miners the verifications do not name from another source (best-result history, decisions). */
export function withMiners(rows: AcceptedResult[], minerOf: ReadonlyMap<string, string>): AcceptedResult[] {
  return rows.map((row) => (row.miner_hotkey === null && minerOf.has(row.submission_id) ? { ...row, miner_hotkey: minerOf.get(row.submission_id) ?? null } : row));
}

/** A row's place: rows with equal values share the rank of the first of them (1, 2, 2, 4), and say they are tied. */
export interface Place {
  rank: number;
  tied: boolean;
}

/** Standard competition ranking of rows already sorted best first, equal `value`s tied. */
export function places<T>(rows: readonly T[], value: (row: T) => number | string): Place[] {
  const out: Place[] = [];
  rows.forEach((row, i) => {
    const same = i > 0 && value(rows[i - 1]) === value(row);
    out.push({ rank: same ? out[i - 1].rank : i + 1, tied: false });
    if (same) {
      out[i].tied = true;
      out[i - 1].tied = true;
    }
  });
  return out;
}
