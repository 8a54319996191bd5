import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ReleaseState, ValidatorJobStatus } from '@rcs/contracts';
import { booleanColumn, enumColumn, nullableFloatColumn, nullableTextColumn, nullableTimestampColumn, queryOneRow, queryRows, SqlRow, textColumn, timestampColumn } from '@rcs/persistence';
import { HeldoutShardEntity } from './entities/heldout-shard.entity';

export interface NewShard {
  taskId: string;
  sha256: string;
  name: string;
  bytes: number;
}

/** What the download route needs of a job: who holds its lease, until when, and the shard it was given. */
export interface JobLease {
  id: string;
  taskId: string;
  status: ValidatorJobStatus;
  validatorHotkey: string | null;
  leaseExpiresAt: Date | null;
  /** Whether the lease is still running by the database's clock. */
  leaseLive: boolean;
  heldoutSha256: string | null;
}

/** Which shard a verification's replay used (the admin audit view). */
export interface ShardUse {
  verificationId: string;
  jobId: string;
  submissionId: string;
  validatorHotkey: string;
  status: string;
  heldoutSha256: string | null;
  heldoutName: string | null;
  /** The raw metric and what it released (DECISIONS §17): admins read them before the shard retires. */
  metricValue: number | null;
  observedMetrics: Record<string, unknown>;
  release: ReleaseState | null;
  releasedMetricValue: number | null;
  metricWithheld: boolean;
  createdAt: Date;
}

/** Held-out shards and the held-out columns of jobs; every method is one statement in the caller's manager. */
@Injectable()
export class HeldoutRepository {
  /**
   * Serialises every change touching one digest (upload, delete) until the transaction ends, so a delete
   * never removes the file an upload of the same bytes to another task is about to reference.
   */
  async lockDigest(manager: EntityManager, sha256: string): Promise<void> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`heldout:${sha256}`]);
  }

  /** Records the shard; an existing row of the same task and digest is kept (and answered) as it is. */
  async insert(manager: EntityManager, shard: NewShard): Promise<{ shard: HeldoutShardEntity; created: boolean }> {
    const inserted = await queryRows(
      manager,
      `INSERT INTO heldout_shards (task_id, sha256, name, bytes) VALUES ($1, $2, $3, $4)
       ON CONFLICT ON CONSTRAINT heldout_shards_task_sha256_unique DO NOTHING
       RETURNING id`,
      [shard.taskId, shard.sha256, shard.name, shard.bytes],
      (row) => textColumn(row, 'id'),
    );
    const stored = await manager.findOneByOrFail(HeldoutShardEntity, { taskId: shard.taskId, sha256: shard.sha256 });
    return { shard: stored, created: inserted.length === 1 };
  }

  list(manager: EntityManager, taskId: string): Promise<HeldoutShardEntity[]> {
    return manager.find(HeldoutShardEntity, { where: { taskId }, order: { createdAt: 'ASC', sha256: 'ASC' } });
  }

  find(manager: EntityManager, taskId: string, sha256: string): Promise<HeldoutShardEntity | null> {
    return manager.findOneBy(HeldoutShardEntity, { taskId, sha256 });
  }

  /** Removes the task's shard; whether there was one. */
  async delete(manager: EntityManager, taskId: string, sha256: string): Promise<boolean> {
    const removed = await queryRows(
      manager,
      `WITH removed AS (DELETE FROM heldout_shards WHERE task_id = $1 AND sha256 = $2 RETURNING id) SELECT id FROM removed`,
      [taskId, sha256],
      (row) => textColumn(row, 'id'),
    );
    return removed.length === 1;
  }

  /** Whether any task still holds these bytes (then the file stays). */
  referenced(manager: EntityManager, sha256: string): Promise<boolean> {
    return queryOneRow(manager, `SELECT EXISTS (SELECT 1 FROM heldout_shards WHERE sha256 = $1) AS held`, [sha256], (row) => row.held === true);
  }

  /**
   * Picks the job's shard for this lease: among the task's shards (of `shardName` when given), the one
   * the fewest of the task's other jobs were given, then the oldest; null when the task holds none.
   * Every lease picks again, so a job that comes back from an expired lease may get another shard.
   */
  assign(manager: EntityManager, jobId: string, shardName: string | null): Promise<string | null> {
    return queryOneRow(
      manager,
      // A CTE: a bare UPDATE … RETURNING comes back from the driver as [rows, count].
      `WITH assigned AS (
         UPDATE validator_jobs j
         SET heldout_sha256 = (
           SELECT h.sha256 FROM heldout_shards h
           WHERE h.task_id = j.task_id AND ($2::text IS NULL OR h.name = $2::text)
           ORDER BY (SELECT count(*) FROM validator_jobs o WHERE o.task_id = h.task_id AND o.heldout_sha256 = h.sha256 AND o.id <> j.id),
                    h.created_at, h.sha256
           LIMIT 1)
         WHERE j.id = $1
         RETURNING j.heldout_sha256
       )
       SELECT heldout_sha256 FROM assigned`,
      [jobId, shardName],
      (row) => nullableTextColumn(row, 'heldout_sha256'),
    );
  }

  /** Gives the job exactly this shard (null: none), for a task whose budget fixes the shard in use. */
  async assignShard(manager: EntityManager, jobId: string, sha256: string | null): Promise<string | null> {
    await manager.query(`UPDATE validator_jobs SET heldout_sha256 = $2 WHERE id = $1`, [jobId, sha256]);
    return sha256;
  }

  /** The job's lease as the download route checks it; null for an unknown id. */
  async jobLease(manager: EntityManager, jobId: string): Promise<JobLease | null> {
    const [lease] = await queryRows(
      manager,
      `SELECT id, task_id, status, validator_hotkey, lease_expires_at, heldout_sha256,
              (lease_expires_at IS NOT NULL AND lease_expires_at > now()) AS lease_live
       FROM validator_jobs WHERE id = $1`,
      [jobId],
      (row: SqlRow): JobLease => ({
        id: textColumn(row, 'id'),
        taskId: textColumn(row, 'task_id'),
        status: textColumn(row, 'status') as ValidatorJobStatus,
        validatorHotkey: nullableTextColumn(row, 'validator_hotkey'),
        leaseExpiresAt: nullableTimestampColumn(row, 'lease_expires_at'),
        leaseLive: row.lease_live === true,
        heldoutSha256: nullableTextColumn(row, 'heldout_sha256'),
      }),
    );
    return lease ?? null;
  }

  /** The task's verifications, newest first, each with the shard its replay used. */
  shardUses(manager: EntityManager, taskId: string): Promise<ShardUse[]> {
    return queryRows(
      manager,
      `SELECT v.id, v.job_id, v.submission_id, v.validator_hotkey, v.status, v.heldout_sha256, h.name AS heldout_name, v.created_at,
              v.metric_value, v.observed_metrics, v.release, v.released_metric_value, v.metric_withheld
       FROM verifications v
       LEFT JOIN heldout_shards h ON h.task_id = v.task_id AND h.sha256 = v.heldout_sha256
       WHERE v.task_id = $1
       ORDER BY v.created_at DESC, v.id DESC`,
      [taskId],
      (row) => ({
        verificationId: textColumn(row, 'id'),
        jobId: textColumn(row, 'job_id'),
        submissionId: textColumn(row, 'submission_id'),
        validatorHotkey: textColumn(row, 'validator_hotkey'),
        status: textColumn(row, 'status'),
        heldoutSha256: nullableTextColumn(row, 'heldout_sha256'),
        heldoutName: nullableTextColumn(row, 'heldout_name'),
        metricValue: nullableFloatColumn(row, 'metric_value'),
        observedMetrics: row.observed_metrics as Record<string, unknown>,
        release: row.release === null ? null : enumColumn(row, 'release', ReleaseState),
        releasedMetricValue: nullableFloatColumn(row, 'released_metric_value'),
        metricWithheld: booleanColumn(row, 'metric_withheld'),
        createdAt: timestampColumn(row, 'created_at'),
      }),
    );
  }
}
