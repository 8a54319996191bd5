import { EntityManager } from 'typeorm';
import { ClaimStatus, WorkItemStatus } from '@rcs/contracts';
import type { ExpiryOutcome } from '../jobs/job-results';
import { ClaimEntity } from './entities/claim.entity';

/** Which active claims past their TTL an expiry pass covers; empty: all of them. */
export interface ExpiryScope {
  claimId?: string;
  taskId?: string;
  minerHotkey?: string;
}


/**
 * Expires every active claim of `scope` whose `expires_at` has passed and returns the work items
 * they held to `open`, in one statement (the sweeper, and every use of a claim, run this).
 */
export async function expireStaleClaims(manager: EntityManager, scope: ExpiryScope = {}): Promise<ExpiryOutcome> {
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

export interface NewClaim {
  taskId: string;
  minerHotkey: string;
  claimDescription: string;
  baseSubmissionId: string | null;
  workItemId: string | null;
  ttlSeconds: number;
}

/**
 * Inserts an active claim unless the miner already holds one on the task (the partial unique index
 * `claims_one_active_per_miner_unique` decides, under any concurrency). Null on that conflict.
 */
export async function insertActiveClaim(manager: EntityManager, claim: NewClaim): Promise<ClaimEntity | null> {
  const rows = (await manager.query(
    `INSERT INTO claims (task_id, work_item_id, miner_hotkey, claim_description, base_submission_id, status, expires_at)
     VALUES ($1, $2, $3, $4, $5, 'active', now() + make_interval(secs => $6))
     ON CONFLICT (task_id, miner_hotkey) WHERE status = 'active' DO NOTHING
     RETURNING id`,
    [claim.taskId, claim.workItemId, claim.minerHotkey, claim.claimDescription, claim.baseSubmissionId, claim.ttlSeconds],
  )) as { id: string }[];
  return rows.length === 0 ? null : manager.findOneByOrFail(ClaimEntity, { id: rows[0].id });
}

/** The miner's active claim on the task, if any. */
export function findActiveClaim(manager: EntityManager, taskId: string, minerHotkey: string): Promise<ClaimEntity | null> {
  return manager.findOne(ClaimEntity, { where: { taskId, minerHotkey, status: ClaimStatus.Active } });
}

/** Returns the work item a claim held to `open` (claim cancelled or expired). */
export async function releaseWorkItem(manager: EntityManager, claimId: string): Promise<void> {
  await manager.query(
    `UPDATE work_items SET status = $2, claim_id = NULL, updated_at = now() WHERE claim_id = $1 AND status = $3`,
    [claimId, WorkItemStatus.Open, WorkItemStatus.Claimed],
  );
}

/** `active` → `submitted` for the signer's unexpired claim in one conditional UPDATE; the claim's task id, or null. */
export async function submitActiveClaim(manager: EntityManager, claimId: string, hotkey: string): Promise<string | null> {
  const result = await manager
    .createQueryBuilder()
    .update(ClaimEntity)
    .set({ status: ClaimStatus.Submitted })
    .where('id = :claimId AND miner_hotkey = :hotkey AND status = :active AND expires_at > now()', {
      claimId,
      hotkey,
      active: ClaimStatus.Active,
    })
    .returning('task_id')
    .execute();
  const rows = result.raw as { task_id: string }[];
  return rows[0]?.task_id ?? null;
}
