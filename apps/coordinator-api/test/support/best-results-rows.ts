import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { CompetitionMode, MetricDirection, MetricResolutionMode, RankingMode } from '@rcs/contracts';
import { inTransaction } from '@rcs/persistence';
import type { TestDatabase } from '@rcs/testing';
import { BestResultConsideration, BestResultsService } from '../../src/best-results/best-results.service';
import { SubmissionEntity } from '../../src/submissions/entities/submission.entity';
import { findTaskOrThrow } from '../../src/tasks/task-lookup';
import { CoordinatorHarness } from '../harness';

/** Rows and decisions for the best-result and idea-reward suites: tasks with ranking rules, and accepted results. */

export interface RankedTaskFields {
  metricName?: string;
  direction?: MetricDirection;
  resolution?: number;
  resolutionMode?: MetricResolutionMode;
  rankingMode?: RankingMode;
  secondaryName?: string;
  secondaryDirection?: MetricDirection;
  mode?: CompetitionMode;
}

/** A live task with the given ranking rule; its id. */
export async function insertRankedTask(db: TestDatabase, fields: RankedTaskFields = {}): Promise<string> {
  const slug = `ranked-${randomBytes(4).toString('hex')}`;
  const rows = (await db.dataSource.query(
    `INSERT INTO tasks (slug, title, repository, base_ref, benchmark_command, allowed_patch_paths, max_patch_bytes,
                        metric_name, metric_direction, ranking_mode, secondary_metric_name, secondary_metric_direction,
                        metric_resolution, metric_resolution_mode, competition_mode, min_peer_evaluations,
                        time_budget_seconds, task_state)
     VALUES ($1, $1, 'https://git.test/research/task.git', 'main', 'python bench.py', '["src/**"]', 262144,
             $2, $3, $4, $5, $6, $7, $8, $9, 2, 600, 'live')
     RETURNING id`,
    [
      slug,
      fields.metricName ?? 'score',
      fields.direction ?? MetricDirection.Maximize,
      fields.rankingMode ?? RankingMode.Scalar,
      fields.secondaryName ?? null,
      fields.secondaryDirection ?? null,
      fields.resolution ?? 0,
      fields.resolutionMode ?? MetricResolutionMode.Absolute,
      fields.mode ?? CompetitionMode.Standard,
    ],
  )) as { id: string }[];
  return rows[0].id;
}

/** A pending submission of `minerHotkey` on its own submitted claim; its id. */
export async function insertPendingSubmission(
  db: TestDatabase,
  fields: { taskId: string; minerHotkey: string; implementedSubmissionId?: string; proposedIdea?: string },
): Promise<string> {
  const claims = (await db.dataSource.query(
    `INSERT INTO claims (task_id, miner_hotkey, claim_description, status, expires_at)
     VALUES ($1, $2, 'fixture claim', 'submitted', now() + interval '1 hour') RETURNING id`,
    [fields.taskId, fields.minerHotkey],
  )) as { id: string }[];
  const rows = (await db.dataSource.query(
    `INSERT INTO submissions (task_id, claim_id, miner_hotkey, base_ref, patch, summary, proposed_idea, implemented_submission_id, status)
     VALUES ($1, $2, $3, 'main', 'diff --git a/src/a.py b/src/a.py', 'A fixture submission.', $4, $5, 'pending_verification')
     RETURNING id`,
    [fields.taskId, claims[0].id, fields.minerHotkey, fields.proposedIdea ?? null, fields.implementedSubmissionId ?? null],
  )) as { id: string }[];
  return rows[0].id;
}

/** Closes the task as the admin route does (closed_at = the moment of the close). */
export async function closeTask(db: TestDatabase, taskId: string): Promise<void> {
  await db.dataSource.query(`UPDATE tasks SET task_state = 'closed', closed_at = clock_timestamp() WHERE id = $1`, [taskId]);
}

/**
 * Accepts a pending submission the way every decision path does (DECISIONS.md §6): task row FOR UPDATE,
 * conditional status change, then BestResultsService.consider, all in one transaction of the app's DataSource.
 */
export function acceptResult(
  h: CoordinatorHarness,
  taskId: string,
  submissionId: string,
  result: { metric: number; secondary?: number | null },
): Promise<BestResultConsideration> {
  const bestResults = h.app.get(BestResultsService);
  return inTransaction(h.app.get(DataSource), async (manager) => {
    const task = await findTaskOrThrow(manager, taskId, { lock: 'update' });
    const [[decided]] = (await manager.query(
      `UPDATE submissions SET status = 'accepted', decided_at = now(), verified_metric_value = $2,
              verified_secondary_metric_value = $3, updated_at = now()
       WHERE id = $1 AND status = 'pending_verification' RETURNING id`,
      [submissionId, result.metric, result.secondary ?? null],
    )) as [{ id: string }[], number];
    const submission = await manager.findOneByOrFail(SubmissionEntity, { id: decided.id });
    return bestResults.consider(manager, task, submission, { metric: result.metric, secondary: result.secondary ?? null });
  });
}
