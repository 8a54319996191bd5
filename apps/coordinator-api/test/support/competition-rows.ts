import { randomBytes } from 'node:crypto';
import { CompetitionMode, SubmissionStatus, TaskState } from '@rcs/contracts';
import type { TestDatabase } from '@rcs/testing';

/** Rows written straight into a test database, for states the API reaches only through other flows. */

export interface TaskRow {
  id: string;
  slug: string;
}

export async function insertTask(
  db: TestDatabase,
  fields: { mode?: CompetitionMode; state?: TaskState; validatorBenchmarkEnv?: Record<string, string> } = {},
): Promise<TaskRow> {
  const slug = `task-${randomBytes(4).toString('hex')}`;
  const rows = (await db.dataSource.query(
    `INSERT INTO tasks (slug, title, repository, base_ref, benchmark_command, allowed_patch_paths, max_patch_bytes,
                        metric_name, metric_direction, ranking_mode, validator_benchmark_env, competition_mode,
                        min_peer_evaluations, time_budget_seconds, task_state)
     VALUES ($1, $2, 'https://git.test/research/task.git', 'main', 'python bench.py', '["src/**"]', 262144,
             'loss', 'minimize', 'scalar', $3, $4, 2, 600, $5)
     RETURNING id`,
    [
      slug,
      `Task ${slug}`,
      JSON.stringify(fields.validatorBenchmarkEnv ?? {}),
      fields.mode ?? CompetitionMode.Standard,
      fields.state ?? TaskState.Live,
    ],
  )) as { id: string }[];
  return { id: rows[0].id, slug };
}

export async function setTaskState(db: TestDatabase, taskId: string, state: TaskState): Promise<void> {
  await db.dataSource.query(`UPDATE tasks SET task_state = $2 WHERE id = $1`, [taskId, state]);
}

/** A claim of `minerHotkey` on the task that has become a submission; its id. */
export async function insertSubmittedClaim(db: TestDatabase, taskId: string, minerHotkey: string): Promise<string> {
  const rows = (await db.dataSource.query(
    `INSERT INTO claims (task_id, miner_hotkey, claim_description, status, expires_at)
     VALUES ($1, $2, 'fixture claim', 'submitted', now() + interval '1 hour') RETURNING id`,
    [taskId, minerHotkey],
  )) as { id: string }[];
  return rows[0].id;
}

/** A submission (on its own submitted claim) by `minerHotkey`; its id. */
export async function insertSubmission(
  db: TestDatabase,
  fields: { taskId: string; minerHotkey: string; proposedIdea?: string | null; status?: SubmissionStatus; summary?: string },
): Promise<string> {
  const claimId = await insertSubmittedClaim(db, fields.taskId, fields.minerHotkey);
  const submissions = (await db.dataSource.query(
    `INSERT INTO submissions (task_id, claim_id, miner_hotkey, base_ref, patch, summary, proposed_idea, status)
     VALUES ($1, $2, $3, 'main', 'diff --git a/src/a.py b/src/a.py', $4, $5, $6) RETURNING id`,
    [
      fields.taskId,
      claimId,
      fields.minerHotkey,
      fields.summary ?? 'A fixture submission.',
      fields.proposedIdea ?? null,
      fields.status ?? SubmissionStatus.PendingVerification,
    ],
  )) as { id: string }[];
  return submissions[0].id;
}

/** Moves a claim's expiry into the past, as if its TTL had run out. */
export async function backdateClaim(db: TestDatabase, claimId: string): Promise<void> {
  await db.dataSource.query(`UPDATE claims SET expires_at = now() - interval '1 second' WHERE id = $1`, [claimId]);
}

export async function claimStatusInDb(db: TestDatabase, claimId: string): Promise<string> {
  const rows = (await db.dataSource.query(`SELECT status FROM claims WHERE id = $1`, [claimId])) as { status: string }[];
  return rows[0].status;
}

/** An open work item on the task, as a planner would store it; its id. */
export async function insertWorkItem(db: TestDatabase, taskId: string, title = `Work item ${randomBytes(3).toString('hex')}`): Promise<string> {
  const rows = (await db.dataSource.query(
    `INSERT INTO work_items (task_id, title, description, priority, status, source, dedupe_key)
     VALUES ($1, $2, 'Do the thing.', 5, 'open', 'admin', $3) RETURNING id`,
    [taskId, title, `fixture:${randomBytes(8).toString('hex')}`],
  )) as { id: string }[];
  return rows[0].id;
}
