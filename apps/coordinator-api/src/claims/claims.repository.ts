import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ClaimQueryDto, ClaimStatus, CompetitionMode, TaskState, WorkItemStatus } from '@rcs/contracts';
import { enumColumn, intColumn, preparedStatement, queryPreparedRows, queryRows, rowLock, SqlRow, textColumn, UnexpectedRowError } from '@rcs/persistence';
import { SubmissionEntity } from '../submissions/entities/submission.entity';
import type { TaskEntity } from '../tasks/entities/task.entity';
import type { ExpiryOutcome } from '../jobs/job-results';
import { ClaimEntity } from './entities/claim.entity';

/** Which active claims past their TTL an expiry pass covers; empty: all of them. */
export interface ExpiryScope {
  claimId?: string;
  taskId?: string;
  minerHotkey?: string;
}


export interface NewClaim {
  taskId: string;
  minerHotkey: string;
  claimDescription: string;
  baseSubmissionId: string | null;
  workItemId: string | null;
  ttlSeconds: number;
}

const CLAIM_COLUMNS = 'id, task_id, work_item_id, miner_hotkey, claim_description, base_submission_id, status, expires_at, created_at, updated_at';

/** `ClaimsRepository.claimLiveTask`'s statement. */
const CLAIM_LIVE_TASK = preparedStatement(
  'claims_claim_live_task',
  `WITH task AS (
     SELECT id, slug, task_state, competition_mode, allowed_patch_paths, max_patch_bytes FROM tasks WHERE id = $1 FOR SHARE
   ), inserted AS (
     INSERT INTO claims (task_id, miner_hotkey, claim_description, base_submission_id, status, expires_at)
     SELECT id, $2, $3, $4, 'active', now() + make_interval(secs => $5) FROM task WHERE task_state = 'live'
     ON CONFLICT (task_id, miner_hotkey) WHERE status = 'active' DO NOTHING
     RETURNING ${CLAIM_COLUMNS}
   )
   SELECT task.id AS task_row_id, task.slug AS task_slug, task.task_state, task.competition_mode, task.allowed_patch_paths, task.max_patch_bytes,
          inserted.*
   FROM task LEFT JOIN inserted ON true`,
);

interface ClaimRow {
  id: string;
  task_id: string;
  work_item_id: string | null;
  miner_hotkey: string;
  claim_description: string;
  base_submission_id: string | null;
  status: ClaimStatus;
  expires_at: Date;
  created_at: Date;
  updated_at: Date;
}

/** What one claim statement found: no such task, a task that is not live, a conflicting active claim, or the new claim. */
export type LiveTaskClaim =
  | { outcome: 'no_task' }
  | { outcome: 'not_live'; taskId: string; slug: string; state: TaskState }
  | { outcome: 'conflict'; slug: string }
  | { outcome: 'claimed'; claim: ClaimEntity; task: SubmittedClaimTask };

/** What a submission needs of the task of the claim it moved to `submitted` (the row share-locked). */
export type SubmittedClaimTask = Pick<TaskEntity, 'id' | 'slug' | 'taskState' | 'competitionMode' | 'allowedPatchPaths' | 'maxPatchBytes'>;

/** The claims table, always through the caller's manager (other domains expire and submit claims inside their own transaction). */
@Injectable()
export class ClaimsRepository {
  /**
   * Expires every active claim of `scope` whose `expires_at` has passed and returns the work items
   * they held to `open`, in one statement (the sweeper, and every use of a claim, run this).
   */
  async expireStale(manager: EntityManager, scope: ExpiryScope = {}): Promise<ExpiryOutcome> {
    const conditions = [`status = 'active'`, `expires_at <= now()`];
    const parameters: string[] = [];
    for (const [column, value] of [
      ['id', scope.claimId],
      ['task_id', scope.taskId],
      ['miner_hotkey', scope.minerHotkey],
    ] as const) {
      if (value === undefined) continue;
      parameters.push(value);
      conditions.push(`${column} = $${parameters.length}`);
    }
    const rows = (await manager.query(
      `WITH expired AS (
         UPDATE claims SET status = 'expired', updated_at = now()
         WHERE ${conditions.join(' AND ')}
         RETURNING id, work_item_id
       ), reopened AS (
         UPDATE work_items w SET status = 'open', claim_id = NULL, updated_at = now()
         FROM expired e
         WHERE w.id = e.work_item_id AND w.claim_id = e.id AND w.status = 'claimed'
         RETURNING w.id
       )
       SELECT (SELECT count(*) FROM expired)::int AS expired, (SELECT count(*) FROM reopened)::int AS reopened`,
      parameters,
    )) as ExpiryOutcome[];
    return rows[0];
  }

  /**
   * Inserts an active claim unless the miner already holds one on the task (the partial unique index
   * `claims_one_active_per_miner_unique` decides, under any concurrency). Null on that conflict.
   */
  async insertActive(manager: EntityManager, claim: NewClaim): Promise<ClaimEntity | null> {
    const rows = (await manager.query(
      `INSERT INTO claims (task_id, work_item_id, miner_hotkey, claim_description, base_submission_id, status, expires_at)
       VALUES ($1, $2, $3, $4, $5, 'active', now() + make_interval(secs => $6))
       ON CONFLICT (task_id, miner_hotkey) WHERE status = 'active' DO NOTHING
       RETURNING ${CLAIM_COLUMNS}`,
      [claim.taskId, claim.workItemId, claim.minerHotkey, claim.claimDescription, claim.baseSubmissionId, claim.ttlSeconds],
    )) as ClaimRow[];
    return rows.length === 0 ? null : toClaimEntity(rows[0]);
  }

  /**
   * The whole claim of a task in one statement, outside any explicit transaction: the task row is
   * share-locked (a concurrent pause or close waits for it), and the claim inserted only when the
   * task is live and the miner holds no active claim on it (the partial unique index decides). It
   * reads no other claim, so its cost does not depend on how many the task holds or on planner
   * statistics. A conflict is left to the caller (the held claim may be past its TTL).
   */
  async claimLiveTask(manager: EntityManager, claim: Omit<NewClaim, 'workItemId'>): Promise<LiveTaskClaim> {
    const rows = (await queryPreparedRows(
      manager,
      CLAIM_LIVE_TASK,
      [claim.taskId, claim.minerHotkey, claim.claimDescription, claim.baseSubmissionId, claim.ttlSeconds],
      (row) => row,
    )) as (Partial<ClaimRow> & { task_row_id: string; task_slug: string; task_state: TaskState } & SqlRow)[];
    const row = rows[0];
    if (row === undefined) return { outcome: 'no_task' };
    if (row.task_state !== TaskState.Live) return { outcome: 'not_live', taskId: row.task_row_id, slug: row.task_slug, state: row.task_state };
    if (row.id === undefined || row.id === null) return { outcome: 'conflict', slug: row.task_slug };
    return {
      outcome: 'claimed',
      claim: toClaimEntity(row as ClaimRow),
      task: toSubmittedClaimTask({ ...row, id: row.task_row_id, slug: row.task_slug }),
    };
  }

  /** The miner's active claim on the task, if any. */
  findActive(manager: EntityManager, taskId: string, minerHotkey: string): Promise<ClaimEntity | null> {
    return manager.findOne(ClaimEntity, { where: { taskId, minerHotkey, status: ClaimStatus.Active } });
  }

  /** Newest first, optionally of one task and in one status, paged. */
  list(manager: EntityManager, query: ClaimQueryDto): Promise<ClaimEntity[]> {
    return manager.find(ClaimEntity, {
      where: { ...(query.task_id !== undefined && { taskId: query.task_id }), ...(query.status !== undefined && { status: query.status }) },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: query.limit,
      skip: query.offset,
    });
  }

  /** The claim by id; `lock` holds its row FOR UPDATE for the rest of the transaction. */
  find(manager: EntityManager, claimId: string, options: { lock?: 'update' } = {}): Promise<ClaimEntity | null> {
    return manager.findOne(ClaimEntity, { where: { id: claimId }, ...rowLock(options.lock) });
  }

  /** The claim by id, which the caller knows exists. */
  get(manager: EntityManager, claimId: string): Promise<ClaimEntity> {
    return manager.findOneByOrFail(ClaimEntity, { id: claimId });
  }

  /** `active` → `cancelled` for an unexpired claim, in one conditional statement; false when it was not active (or past its TTL). */
  async cancelActive(manager: EntityManager, claimId: string): Promise<boolean> {
    const cancelled = await manager
      .createQueryBuilder()
      .update(ClaimEntity)
      .set({ status: ClaimStatus.Cancelled })
      .where('id = :claimId AND status = :active AND expires_at > now()', { claimId, active: ClaimStatus.Active })
      .returning('id')
      .execute();
    return (cancelled.raw as unknown[]).length === 1;
  }

  /** The task of a submission a claim names as its base; null when no submission has this id (a uuid). */
  async findBaseSubmissionTaskId(manager: EntityManager, submissionId: string): Promise<string | null> {
    const submission = await manager.findOne(SubmissionEntity, { where: { id: submissionId } });
    return submission?.taskId ?? null;
  }

  /** Returns the work item a claim held to `open` (claim cancelled or expired). */
  async releaseWorkItem(manager: EntityManager, claimId: string): Promise<void> {
    await manager.query(
      // By the id the claim names (the primary key): work_items has no index on claim_id.
      `UPDATE work_items w SET status = $2, claim_id = NULL, updated_at = now()
       FROM claims c WHERE c.id = $1 AND w.id = c.work_item_id AND w.claim_id = $1 AND w.status = $3`,
      [claimId, WorkItemStatus.Open, WorkItemStatus.Claimed],
    );
  }

  /**
   * The task of the signer's unexpired active claim, read as `submitActive` reads it but without
   * taking the claim or locking anything: the first half of a submission's two-round-trip path, whose
   * write (`SubmissionsRepository.storePendingIfUnchanged`) holds only if nothing read here changed.
   */
  peekActive(manager: EntityManager, claimId: string, hotkey: string): Promise<SubmittedClaimTask | null> {
    return queryRows(
      manager,
      `SELECT t.id, t.slug, t.task_state, t.competition_mode, t.allowed_patch_paths, t.max_patch_bytes
       FROM claims c JOIN tasks t ON t.id = c.task_id
       WHERE c.id = $1 AND c.miner_hotkey = $2 AND c.status = $3 AND c.expires_at > now()`,
      [claimId, hotkey, ClaimStatus.Active],
      toSubmittedClaimTask,
    ).then((rows) => rows[0] ?? null);
  }

  /**
   * `active` → `submitted` for the signer's unexpired claim, and its task share-locked and read (a
   * concurrent pause or close waits for the submission instead of racing it), in one statement. Null
   * when the claim was not taken (the caller finds out why).
   */
  submitActive(manager: EntityManager, claimId: string, hotkey: string): Promise<SubmittedClaimTask | null> {
    return queryRows(
      manager,
      `WITH submitted AS (
         UPDATE claims SET status = $3, updated_at = now()
         WHERE id = $1 AND miner_hotkey = $2 AND status = $4 AND expires_at > now()
         RETURNING task_id
       )
       SELECT t.id, t.slug, t.task_state, t.competition_mode, t.allowed_patch_paths, t.max_patch_bytes
       FROM submitted s JOIN tasks t ON t.id = s.task_id
       FOR SHARE OF t`,
      [claimId, hotkey, ClaimStatus.Submitted, ClaimStatus.Active],
      toSubmittedClaimTask,
    ).then((rows) => rows[0] ?? null);
  }
}

function toSubmittedClaimTask(row: SqlRow): SubmittedClaimTask {
  return {
    id: textColumn(row, 'id'),
    slug: textColumn(row, 'slug'),
    taskState: enumColumn(row, 'task_state', TaskState),
    competitionMode: enumColumn(row, 'competition_mode', CompetitionMode),
    allowedPatchPaths: textArrayColumn(row, 'allowed_patch_paths'),
    maxPatchBytes: intColumn(row, 'max_patch_bytes'),
  };
}

function toClaimEntity(row: ClaimRow): ClaimEntity {
  return Object.assign(new ClaimEntity(), {
    id: row.id,
    taskId: row.task_id,
    workItemId: row.work_item_id,
    minerHotkey: row.miner_hotkey,
    claimDescription: row.claim_description,
    baseSubmissionId: row.base_submission_id,
    status: row.status,
    expiresAt: row.expires_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  });
}

/** A jsonb array of strings, as `tasks.allowed_patch_paths` holds. */
function textArrayColumn(row: SqlRow, column: string): string[] {
  const value = row[column];
  if (!Array.isArray(value) || !value.every((item): item is string => typeof item === 'string')) {
    throw new UnexpectedRowError(`Column ${column}: expected an array of text, got ${JSON.stringify(value)}`);
  }
  return value;
}
