import { EntityManager } from 'typeorm';
import { ClaimStatus, CompetitionMode, MetricDirection, SubmissionStatus, TaskState, ValidatorJobStatus, WorkItemStatus } from '@rcs/contracts';

/**
 * The dashboard's reads: a few aggregate queries, each over whole tables or the listed task ids,
 * never one query per task. Columns are named one by one, so validator-private ones cannot leak in.
 */

export interface DashboardTaskRow {
  id: string;
  slug: string;
  title: string;
  task_state: TaskState;
  competition_mode: CompetitionMode;
  metric_name: string;
  metric_direction: MetricDirection;
  created_at: Date;
  best_submission_id: string | null;
  best_miner_hotkey: string | null;
  best_metric_value: number | null;
  best_updated_at: Date | null;
}

export interface TaskStateCountRow {
  task_state: TaskState;
  count: number;
}

export interface SubmissionCountRow {
  task_id: string;
  status: SubmissionStatus;
  count: number;
}

export interface TaskCountRow {
  task_id: string;
  count: number;
}

export interface BacklogRow {
  pending_jobs: number;
  leased_jobs: number;
  expired_leases: number;
  oldest_pending_age_seconds: number | null;
}

export interface DecisionRow {
  task_id: string;
  task_slug: string;
  submission_id: string;
  miner_hotkey: string;
  status: SubmissionStatus;
  metric_name: string;
  verified_metric_value: number | null;
  decided_at: Date;
}

/** The transaction's clock: every "now" of the other reads is this moment. */
export async function readClock(manager: EntityManager): Promise<Date> {
  const [row] = (await manager.query(`SELECT now() AS now`)) as { now: Date }[];
  return row.now;
}

export function countTasksByState(manager: EntityManager): Promise<TaskStateCountRow[]> {
  return manager.query(`SELECT task_state, count(*)::int AS count FROM tasks GROUP BY task_state`);
}

/** Newest first, each with its current best (null before the first accepted result). */
export function listTasks(manager: EntityManager, limit: number): Promise<DashboardTaskRow[]> {
  return manager.query(
    `SELECT t.id, t.slug, t.title, t.task_state, t.competition_mode, t.metric_name, t.metric_direction, t.created_at,
            b.submission_id AS best_submission_id, b.miner_hotkey AS best_miner_hotkey,
            b.metric_value AS best_metric_value, b.updated_at AS best_updated_at
     FROM tasks t
     LEFT JOIN best_results b ON b.task_id = t.id
     ORDER BY t.created_at DESC, t.id DESC
     LIMIT $1`,
    [limit],
  );
}

export function countSubmissionsByStatus(manager: EntityManager, taskIds: string[]): Promise<SubmissionCountRow[]> {
  return manager.query(
    `SELECT task_id, status, count(*)::int AS count FROM submissions WHERE task_id = ANY($1::uuid[]) GROUP BY task_id, status`,
    [taskIds],
  );
}

/** Claims still `active` in the table but past their TTL wait for the sweeper; they are not active. */
export function countActiveClaims(manager: EntityManager, taskIds: string[]): Promise<TaskCountRow[]> {
  return manager.query(
    `SELECT task_id, count(*)::int AS count FROM claims
     WHERE status = $2 AND expires_at > now() AND task_id = ANY($1::uuid[])
     GROUP BY task_id`,
    [taskIds, ClaimStatus.Active],
  );
}

export function countOpenWorkItems(manager: EntityManager, taskIds: string[]): Promise<TaskCountRow[]> {
  return manager.query(
    `SELECT task_id, count(*)::int AS count FROM work_items WHERE status = $2 AND task_id = ANY($1::uuid[]) GROUP BY task_id`,
    [taskIds, WorkItemStatus.Open],
  );
}

export async function readBacklog(manager: EntityManager): Promise<BacklogRow> {
  const [row] = (await manager.query(
    `SELECT count(*) FILTER (WHERE status = $1)::int AS pending_jobs,
            count(*) FILTER (WHERE status = $2)::int AS leased_jobs,
            count(*) FILTER (WHERE status = $2 AND lease_expires_at < now())::int AS expired_leases,
            floor(extract(epoch FROM now() - min(created_at) FILTER (WHERE status = $1)))::int AS oldest_pending_age_seconds
     FROM validator_jobs
     WHERE status IN ($1, $2)`,
    [ValidatorJobStatus.Pending, ValidatorJobStatus.Leased],
  )) as BacklogRow[];
  return row;
}

/** The latest decisions of every task, newest first. */
export function listRecentDecisions(manager: EntityManager, limit: number): Promise<DecisionRow[]> {
  return manager.query(
    `SELECT s.task_id, t.slug AS task_slug, s.id AS submission_id, s.miner_hotkey, s.status, t.metric_name,
            s.verified_metric_value, s.decided_at
     FROM submissions s
     JOIN tasks t ON t.id = s.task_id
     WHERE s.decided_at IS NOT NULL
     ORDER BY s.decided_at DESC, s.id DESC
     LIMIT $1`,
    [limit],
  );
}
