import { randomBytes } from 'node:crypto';
import { CompetitionMode, MetricDirection, MetricResolutionMode, RankingMode, SubmissionStatus } from '@rcs/contracts';
import type { TestDatabase } from '@rcs/testing';
import type { BestResultConsideration } from '../../src/best-results/best-results.service';
import { DecisionService } from '../../src/decisions/decisions.module';
import { CoordinatorHarness } from '../harness';
import { insertSubmittedClaim } from './competition-rows';

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
  const claimId = await insertSubmittedClaim(db, fields.taskId, fields.minerHotkey);
  const rows = (await db.dataSource.query(
    `INSERT INTO submissions (task_id, claim_id, miner_hotkey, base_ref, patch, summary, proposed_idea, implemented_submission_id, status)
     VALUES ($1, $2, $3, 'main', 'diff --git a/src/a.py b/src/a.py', 'A fixture submission.', $4, $5, 'pending_verification')
     RETURNING id`,
    [fields.taskId, claimId, fields.minerHotkey, fields.proposedIdea ?? null, fields.implementedSubmissionId ?? null],
  )) as { id: string }[];
  return rows[0].id;
}

/** Closes the task as the admin route does (closed_at = the moment of the close). */
export async function closeTask(db: TestDatabase, taskId: string): Promise<void> {
  await db.dataSource.query(`UPDATE tasks SET task_state = 'closed', closed_at = clock_timestamp() WHERE id = $1`, [taskId]);
}

/**
 * Accepts a pending submission through the decision service every decision path uses (DECISIONS.md §6):
 * task row FOR UPDATE, conditional status change stamped in lock order, then the best result considered.
 */
export async function acceptResult(
  h: CoordinatorHarness,
  taskId: string,
  submissionId: string,
  result: { metric: number; secondary?: number | null },
): Promise<BestResultConsideration> {
  const recorded = await h.app.get(DecisionService).transaction(async (tx) =>
    tx.decide({
      task: await tx.lockTask(taskId),
      submissionId,
      verdict: { status: SubmissionStatus.Accepted, metric: result.metric, secondary: result.secondary ?? null },
    }),
  );
  if (recorded?.bestResult == null) throw new SubmissionNotPendingError(submissionId);
  return recorded.bestResult;
}

/** acceptResult found the submission already decided. */
export class SubmissionNotPendingError extends Error {
  constructor(readonly submissionId: string) {
    super(`Submission ${submissionId} was not pending`);
    this.name = 'SubmissionNotPendingError';
  }
}
