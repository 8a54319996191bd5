import { Injectable } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { SubmissionStatus, ValidatorJobReason, ValidatorJobStatus } from '@rcs/contracts';
import { enumColumn, intColumn, nullableTextColumn, queryOneRow, queryRows, SqlRow, textColumn } from '@rcs/persistence';
import { REPLAYED_MODES } from '../tasks/competition-modes';
import { ValidatorJobEntity } from './entities/validator-job.entity';
import type { RotationPair } from './heldout-rotation';

/** Which pending jobs a lease may take. */
export interface LeaseRequest {
  validatorHotkey: string;
  /** Only jobs of this task (a uuid), or of the task with this slug. */
  taskId: string | null;
  taskSlug: string | null;
  limit: number;
  /** Added to the task's time budget: how long past the budget the lease holds. */
  graceSeconds: number;
  /** What the validator's sandbox offers: only jobs of tasks whose hardware asks for no more qualify. */
  gpuCount: number;
  /** Memory of the validator's smallest GPU, in GB. */
  gpuMemoryGb: number;
}

/** A job whose lease ran out for the last allowed time: its submission must be decided as `error`. */
export interface ExhaustedJob {
  id: string;
  taskId: string;
  submissionId: string;
  reason: ValidatorJobReason;
  /** A re-score's exposure and the shard it was given (DECISIONS §17); null for a decide job. */
  exposureId: string | null;
  heldoutSha256: string | null;
  /** Expiries including this one. */
  expiries: number;
}

export const LEASE_EXPIRED_ERROR = 'lease expired';

/**
 * The task delivers the coordinator shard its env names (DECISIONS §6, "Whose fault"): a task whose first
 * `<NAME>_SHARD=coordinator[:<name>]` key (heldout-env.ts shardSelector's rule) matches none of its shards is not
 * leased at all, so its submissions wait for the upload instead of being replayed without their held-out data.
 */
const HAS_NAMED_SHARDS = `NOT EXISTS (
  SELECT 1 FROM (
    SELECT btrim(e.value) AS selector FROM jsonb_each_text(t.validator_benchmark_env) e
    WHERE e.key LIKE '%\\_SHARD' AND length(e.key) > 6 AND (btrim(e.value) = 'coordinator' OR btrim(e.value) LIKE 'coordinator:%')
    ORDER BY e.key COLLATE "C" LIMIT 1
  ) first_key
  WHERE NOT EXISTS (
    SELECT 1 FROM heldout_shards h
    WHERE h.task_id = t.id
      AND (NULLIF(btrim(substr(first_key.selector, 13)), '') IS NULL OR h.name = btrim(substr(first_key.selector, 13)))
  )
)`;

/** Validator jobs (DECISIONS.md §6): every method is one statement in the caller's transaction (or its own). */
@Injectable()
export class ValidatorJobsRepository {
  /**
   * Leases up to `limit` pending jobs to one validator: re-score jobs first (a rotated shard's leader and held results,
   * DECISIONS §17: releases on the new shard wait for the leader's), then the oldest. `SKIP LOCKED` lets concurrent
   * scans pass each other's rows, so no job is ever handed to two validators. Only jobs of pending
   * submissions of standard or centerless tasks whose hardware the validator meets qualify: a job it
   * cannot run is never leased to it, so it never loses an attempt there.
   */
  async lease(manager: EntityManager, request: LeaseRequest): Promise<ValidatorJobEntity[]> {
    const eligible = (reason: ValidatorJobReason): string => `
         SELECT j.id, t.time_budget_seconds
         FROM validator_jobs j
         JOIN tasks t ON t.id = j.task_id
         JOIN submissions s ON s.id = j.submission_id
         WHERE j.status = $6 AND j.reason = '${reason}'
           ${reason === ValidatorJobReason.Rescore ? '' : 'AND s.status = $8'}
           AND t.competition_mode = ANY($9::text[])
           AND ($1::uuid IS NULL OR t.id = $1::uuid)
           AND ($2::text IS NULL OR t.slug = $2::text)
           AND (t.hardware_gpu_count IS NULL OR (t.hardware_gpu_count <= $10::int AND t.hardware_gpu_memory_gb <= $11::float8))
           AND ${HAS_NAMED_SHARDS}
         ORDER BY j.created_at, j.id`;
    const ids = await queryRows(
      manager,
      `WITH rescores AS (${eligible(ValidatorJobReason.Rescore)}
         LIMIT $3
         FOR UPDATE OF j SKIP LOCKED
       ), decides AS (${eligible(ValidatorJobReason.Decide)}
         LIMIT $3::int - (SELECT count(*) FROM rescores)::int
         FOR UPDATE OF j SKIP LOCKED
       ), picked AS (
         SELECT * FROM rescores UNION ALL SELECT * FROM decides
       ), leased AS (
         UPDATE validator_jobs j
         SET status = $7,
             validator_hotkey = $4,
             lease_expires_at = now() + (picked.time_budget_seconds + $5) * interval '1 second',
             updated_at = now()
         FROM picked
         WHERE j.id = picked.id AND j.status = $6
         RETURNING j.id
       )
       SELECT id FROM leased`,
      [
        request.taskId,
        request.taskSlug,
        request.limit,
        request.validatorHotkey,
        request.graceSeconds,
        ValidatorJobStatus.Pending,
        ValidatorJobStatus.Leased,
        SubmissionStatus.PendingVerification,
        REPLAYED_MODES,
        request.gpuCount,
        request.gpuMemoryGb,
      ],
      idOf,
    );
    if (ids.length === 0) return [];
    return manager.find(ValidatorJobEntity, { where: { id: In(ids) }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /**
   * Returns every lease that ran out to the pool (`attempts + 1`), except those out of attempts,
   * which stay leased until their submission is decided as `error`. Rows another transaction holds
   * are skipped, so concurrent sweeps and scans never wait on each other or count an expiry twice.
   */
  returnExpiredLeases(manager: EntityManager, maxAttempts: number): Promise<number> {
    return queryOneRow(
      manager,
      `WITH expired AS (
         SELECT id FROM validator_jobs
         WHERE status = $3 AND lease_expires_at <= now() AND attempts + 1 < $1
         FOR UPDATE SKIP LOCKED
       ), returned AS (
         UPDATE validator_jobs j
         SET status = $4, attempts = j.attempts + 1, validator_hotkey = NULL, lease_expires_at = NULL,
             last_error = $2, updated_at = now()
         FROM expired
         WHERE j.id = expired.id AND j.status = $3
         RETURNING j.id
       )
       SELECT count(*)::int AS returned FROM returned`,
      [maxAttempts, LEASE_EXPIRED_ERROR, ValidatorJobStatus.Leased, ValidatorJobStatus.Pending],
      (row) => intColumn(row, 'returned'),
    );
  }

  /** Expired leases that used up the last attempt. */
  findExhausted(manager: EntityManager, maxAttempts: number): Promise<ExhaustedJob[]> {
    return queryRows(
      manager,
      `SELECT id, task_id, submission_id, reason, exposure_id, heldout_sha256, attempts + 1 AS expiries FROM validator_jobs
       WHERE status = $2 AND lease_expires_at <= now() AND attempts + 1 >= $1
       ORDER BY lease_expires_at, id`,
      [maxAttempts, ValidatorJobStatus.Leased],
      (row) => ({
        id: textColumn(row, 'id'),
        taskId: textColumn(row, 'task_id'),
        submissionId: textColumn(row, 'submission_id'),
        reason: enumColumn(row, 'reason', ValidatorJobReason),
        exposureId: nullableTextColumn(row, 'exposure_id'),
        heldoutSha256: nullableTextColumn(row, 'heldout_sha256'),
        expiries: intColumn(row, 'expiries'),
      }),
    );
  }

  /** The transaction's clock, in seconds since the epoch: one lease time for every job a scan leases. */
  leaseClock(manager: EntityManager): Promise<number> {
    return queryOneRow(manager, `SELECT extract(epoch FROM now())::float8 AS now`, [], (row) => Number(row.now));
  }

  /** Fixes the job's rotation pair at its first lease; a re-lease keeps the pair it has (DECISIONS §15). */
  async fixRotation(manager: EntityManager, job: ValidatorJobEntity, pair: RotationPair): Promise<void> {
    const [kept] = await queryRows(
      manager,
      `WITH fixed AS (
         UPDATE validator_jobs
         SET heldout_rotation_slot = COALESCE(heldout_rotation_slot, $2), heldout_rotation_number = COALESCE(heldout_rotation_number, $3)
         WHERE id = $1
         RETURNING heldout_rotation_slot, heldout_rotation_number
       )
       SELECT heldout_rotation_slot, heldout_rotation_number FROM fixed`,
      [job.id, pair.slot, pair.number],
      (row) => ({ slot: intColumn(row, 'heldout_rotation_slot'), number: textColumn(row, 'heldout_rotation_number') }),
    );
    job.heldoutRotationSlot = kept.slot;
    job.heldoutRotationNumber = kept.number;
  }

  /** The job by id (a uuid), optionally row-locked for the rest of the transaction. */
  find(manager: EntityManager, jobId: string, options: { lock?: boolean } = {}): Promise<ValidatorJobEntity | null> {
    return manager.findOne(ValidatorJobEntity, { where: { id: jobId }, ...(options.lock ? { lock: { mode: 'pessimistic_write' } } : {}) });
  }

  findForSubmission(manager: EntityManager, submissionId: string): Promise<ValidatorJobEntity | null> {
    return manager.findOne(ValidatorJobEntity, { where: { submissionId, reason: ValidatorJobReason.Decide } });
  }

  /** `leased` → `completed` for the lessee of a live lease; false when the lease is no longer theirs. */
  completeLease(manager: EntityManager, jobId: string, validatorHotkey: string): Promise<boolean> {
    return updatesOne(
      manager,
      `UPDATE validator_jobs SET status = $3, completed_at = now(), updated_at = now()
       WHERE id = $1 AND status = $4 AND validator_hotkey = $2 AND lease_expires_at > now()`,
      [jobId, validatorHotkey, ValidatorJobStatus.Completed, ValidatorJobStatus.Leased],
    );
  }

  /** A manual verify completes the job whatever its lease state, and records who verified. */
  completeForVerify(manager: EntityManager, jobId: string, validatorHotkey: string): Promise<boolean> {
    return updatesOne(
      manager,
      `UPDATE validator_jobs SET status = $3, completed_at = now(), validator_hotkey = $2, updated_at = now()
       WHERE id = $1 AND status <> $3`,
      [jobId, validatorHotkey, ValidatorJobStatus.Completed],
    );
  }

  /** Completes a job whose lease ran out for the last time; no validator holds it any more. */
  completeExhausted(manager: EntityManager, jobId: string, note: string): Promise<boolean> {
    return updatesOne(
      manager,
      `UPDATE validator_jobs
       SET status = $3, completed_at = now(), attempts = attempts + 1, validator_hotkey = NULL,
           lease_expires_at = NULL, last_error = $2, updated_at = now()
       WHERE id = $1 AND status = $4 AND lease_expires_at <= now()`,
      [jobId, note, ValidatorJobStatus.Completed, ValidatorJobStatus.Leased],
    );
  }
}

function idOf(row: SqlRow): string {
  return textColumn(row, 'id');
}

/** Runs a single-row conditional UPDATE; whether it changed the row. */
async function updatesOne(manager: EntityManager, update: string, parameters: unknown[]): Promise<boolean> {
  const changed = await queryRows(manager, `WITH changed AS (${update} RETURNING id) SELECT id FROM changed`, parameters, idOf);
  return changed.length === 1;
}
