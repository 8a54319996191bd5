import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import {
  ClaimStatus,
  CompetitionMode,
  ExposureStatus,
  MetricDirection,
  MIN_HELDOUT_BUDGET_BITS,
  SubmissionStatus,
  TaskExposureDto,
  TaskState,
  ValidatorJobStatus,
  WorkItemStatus,
} from '@rcs/contracts';
import {
  enumColumn,
  intColumn,
  nullableFloatColumn,
  nullableIntColumn,
  nullableTextColumn,
  nullableTimestampColumn,
  queryOneRow,
  queryRows,
  SqlRow,
  textColumn,
  timestampColumn,
} from '@rcs/persistence';
import type { SubmissionDecided } from '../events/domain-events';


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
  /** Set when the task has an enabled held-out budget (DECISIONS §17): its active shard's exposure, zero before the first. */
  exposure: TaskExposureDto | null;
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

/**
 * The dashboard's reads: a few aggregate queries, each over whole tables or the listed task ids,
 * never one query per task. Columns are named one by one, so validator-private ones cannot leak in.
 */
@Injectable()
export class DashboardRepository {
  /** The transaction's clock: every "now" of the other reads is this moment. */
  readClock(manager: EntityManager): Promise<Date> {
    return queryOneRow(manager, `SELECT now() AS now`, [], (row) => timestampColumn(row, 'now'));
  }

  countTasksByState(manager: EntityManager): Promise<TaskStateCountRow[]> {
    return queryRows(manager, `SELECT task_state, count(*)::int AS count FROM tasks GROUP BY task_state`, [], (row) => ({
      task_state: enumColumn(row, 'task_state', TaskState),
      count: intColumn(row, 'count'),
    }));
  }

  /** Newest first, each with its current best (null before the first accepted result). */
  listTasks(manager: EntityManager, limit: number): Promise<DashboardTaskRow[]> {
    return queryRows(
      manager,
      `SELECT t.id, t.slug, t.title, t.task_state, t.competition_mode, t.metric_name, t.metric_direction, t.created_at,
              b.submission_id AS best_submission_id, b.miner_hotkey AS best_miner_hotkey,
              b.metric_value AS best_metric_value, b.updated_at AS best_updated_at,
              coalesce((t.heldout_budget ->> 'enabled')::boolean, false) AS budgeted,
              coalesce(e.spent_bits, 0) AS spent_bits, coalesce(e.budget_bits, (t.heldout_budget ->> 'bits')::int, $2) AS budget_bits,
              coalesce(e.releases, 0) AS releases, coalesce(e.status, '${ExposureStatus.Open}') AS exposure_status
       FROM tasks t
       LEFT JOIN best_results b ON b.task_id = t.id
       LEFT JOIN heldout_exposures e ON e.task_id = t.id AND e.retired_at IS NULL
       ORDER BY t.created_at DESC, t.id DESC
       LIMIT $1`,
      [limit, MIN_HELDOUT_BUDGET_BITS],
      (row) => ({
        id: textColumn(row, 'id'),
        slug: textColumn(row, 'slug'),
        title: textColumn(row, 'title'),
        task_state: enumColumn(row, 'task_state', TaskState),
        competition_mode: enumColumn(row, 'competition_mode', CompetitionMode),
        metric_name: textColumn(row, 'metric_name'),
        metric_direction: enumColumn(row, 'metric_direction', MetricDirection),
        created_at: timestampColumn(row, 'created_at'),
        best_submission_id: nullableTextColumn(row, 'best_submission_id'),
        best_miner_hotkey: nullableTextColumn(row, 'best_miner_hotkey'),
        best_metric_value: nullableFloatColumn(row, 'best_metric_value'),
        best_updated_at: nullableTimestampColumn(row, 'best_updated_at'),
        exposure:
          row.budgeted === true
            ? {
                spent_bits: intColumn(row, 'spent_bits'),
                budget_bits: intColumn(row, 'budget_bits'),
                releases: intColumn(row, 'releases'),
                status: enumColumn(row, 'exposure_status', ExposureStatus),
              }
            : null,
      }),
    );
  }

  countSubmissionsByStatus(manager: EntityManager, taskIds: string[]): Promise<SubmissionCountRow[]> {
    return queryRows(
      manager,
      `SELECT task_id, status, count(*)::int AS count FROM submissions WHERE task_id = ANY($1::uuid[]) GROUP BY task_id, status`,
      [taskIds],
      (row) => ({ task_id: textColumn(row, 'task_id'), status: enumColumn(row, 'status', SubmissionStatus), count: intColumn(row, 'count') }),
    );
  }

  /** Claims still `active` in the table but past their TTL wait for the sweeper; they are not active. */
  countActiveClaims(manager: EntityManager, taskIds: string[]): Promise<TaskCountRow[]> {
    return queryRows(
      manager,
      `SELECT task_id, count(*)::int AS count FROM claims
       WHERE status = $2 AND expires_at > now() AND task_id = ANY($1::uuid[])
       GROUP BY task_id`,
      [taskIds, ClaimStatus.Active],
      taskCountOf,
    );
  }

  countOpenWorkItems(manager: EntityManager, taskIds: string[]): Promise<TaskCountRow[]> {
    return queryRows(
      manager,
      `SELECT task_id, count(*)::int AS count FROM work_items WHERE status = $2 AND task_id = ANY($1::uuid[]) GROUP BY task_id`,
      [taskIds, WorkItemStatus.Open],
      taskCountOf,
    );
  }

  readBacklog(manager: EntityManager): Promise<BacklogRow> {
    return queryOneRow(
      manager,
      `SELECT count(*) FILTER (WHERE status = $1)::int AS pending_jobs,
              count(*) FILTER (WHERE status = $2)::int AS leased_jobs,
              count(*) FILTER (WHERE status = $2 AND lease_expires_at < now())::int AS expired_leases,
              floor(extract(epoch FROM now() - min(created_at) FILTER (WHERE status = $1)))::int AS oldest_pending_age_seconds
       FROM validator_jobs
       WHERE status IN ($1, $2)`,
      [ValidatorJobStatus.Pending, ValidatorJobStatus.Leased],
      (row) => ({
        pending_jobs: intColumn(row, 'pending_jobs'),
        leased_jobs: intColumn(row, 'leased_jobs'),
        expired_leases: intColumn(row, 'expired_leases'),
        oldest_pending_age_seconds: nullableIntColumn(row, 'oldest_pending_age_seconds'),
      }),
    );
  }

  /** The latest decisions of every task, newest first. */
  listRecentDecisions(manager: EntityManager, limit: number): Promise<SubmissionDecided[]> {
    return queryRows(
      manager,
      `SELECT s.task_id, t.slug AS task_slug, s.id AS submission_id, s.miner_hotkey, s.status, t.metric_name,
              s.verified_metric_value, s.decided_at
       FROM submissions s
       JOIN tasks t ON t.id = s.task_id
       WHERE s.decided_at IS NOT NULL
       ORDER BY s.decided_at DESC, s.id DESC
       LIMIT $1`,
      [limit],
      (row) => ({
        submissionId: textColumn(row, 'submission_id'),
        taskId: textColumn(row, 'task_id'),
        taskSlug: textColumn(row, 'task_slug'),
        minerHotkey: textColumn(row, 'miner_hotkey'),
        status: enumColumn(row, 'status', SubmissionStatus),
        metricName: textColumn(row, 'metric_name'),
        verifiedMetricValue: nullableFloatColumn(row, 'verified_metric_value'),
        decidedAt: timestampColumn(row, 'decided_at'),
      }),
    );
  }
}

function taskCountOf(row: SqlRow): TaskCountRow {
  return { task_id: textColumn(row, 'task_id'), count: intColumn(row, 'count') };
}
