import { Injectable } from '@nestjs/common';
import { EntityManager, IsNull } from 'typeorm';
import { ReleaseState } from '@rcs/contracts';
import { queryRows, textColumn } from '@rcs/persistence';
import { HeldoutExposureEntity } from './entities/heldout-exposure.entity';

export type NewExposure = Pick<HeldoutExposureEntity, 'taskId' | 'seq' | 'shardSha256' | 'budgetBits'>;

/** The heldout_exposures table and the release columns of verifications; every method runs in the caller's manager. */
@Injectable()
export class ExposureRepository {
  /** The task's active exposure; the caller holds the task row FOR UPDATE when it means to change it. */
  active(manager: EntityManager, taskId: string): Promise<HeldoutExposureEntity | null> {
    return manager.findOneBy(HeldoutExposureEntity, { taskId, retiredAt: IsNull() });
  }

  /** The active exposures of these tasks, by task id. */
  async activeOf(manager: EntityManager, taskIds: string[]): Promise<Map<string, HeldoutExposureEntity>> {
    if (taskIds.length === 0) return new Map();
    const rows = await manager
      .createQueryBuilder(HeldoutExposureEntity, 'e')
      .where('e.task_id = ANY(:taskIds) AND e.retired_at IS NULL', { taskIds })
      .getMany();
    return new Map(rows.map((row) => [row.taskId, row]));
  }

  /**
   * The task's active exposure, made first from its oldest unused shard when it has none. One statement that
   * a concurrent maker cannot double (the partial unique index decides), so a lease may call it without the task lock.
   */
  async ensureActive(manager: EntityManager, taskId: string, budgetBits: number): Promise<HeldoutExposureEntity> {
    await manager.query(
      `INSERT INTO heldout_exposures (task_id, seq, shard_sha256, budget_bits)
       SELECT $1, coalesce((SELECT max(seq) FROM heldout_exposures WHERE task_id = $1), 0) + 1,
              (SELECT h.sha256 FROM heldout_shards h
               WHERE h.task_id = $1 AND NOT EXISTS (SELECT 1 FROM heldout_exposures e WHERE e.task_id = h.task_id AND e.shard_sha256 = h.sha256)
               ORDER BY h.created_at, h.sha256 LIMIT 1),
              $2
       WHERE NOT EXISTS (SELECT 1 FROM heldout_exposures WHERE task_id = $1 AND retired_at IS NULL)
       ON CONFLICT DO NOTHING`,
      [taskId, budgetBits],
    );
    return manager.findOneByOrFail(HeldoutExposureEntity, { taskId, retiredAt: IsNull() });
  }

  async insert(manager: EntityManager, exposure: NewExposure): Promise<HeldoutExposureEntity> {
    const { identifiers } = await manager.insert(HeldoutExposureEntity, exposure);
    return manager.findOneByOrFail(HeldoutExposureEntity, { id: (identifiers[0] as { id: string }).id });
  }

  /** Writes what a release changed (R, its leader, the bits spent, the release count, the status). */
  async save(manager: EntityManager, exposure: HeldoutExposureEntity): Promise<void> {
    const { releasedBest, leaderSubmissionId, spentBits, budgetBits, releases, status } = exposure;
    await manager.update(HeldoutExposureEntity, { id: exposure.id }, { releasedBest, leaderSubmissionId, spentBits, budgetBits, releases, status });
  }

  /** Retires the exposure and publishes the raw metrics released against it (DECISIONS §17). */
  async retire(manager: EntityManager, exposureId: string): Promise<void> {
    await manager.query(`UPDATE heldout_exposures SET retired_at = clock_timestamp() WHERE id = $1 AND retired_at IS NULL`, [exposureId]);
    await manager.query(`UPDATE verifications SET metric_withheld = false WHERE exposure_id = $1 AND metric_withheld`, [exposureId]);
  }

  /** The task's uploaded shards no exposure has used yet, oldest first (the rotation order). */
  unusedShards(manager: EntityManager, taskId: string): Promise<string[]> {
    return queryRows(
      manager,
      `SELECT h.sha256 FROM heldout_shards h
       WHERE h.task_id = $1 AND NOT EXISTS (SELECT 1 FROM heldout_exposures e WHERE e.task_id = h.task_id AND e.shard_sha256 = h.sha256)
       ORDER BY h.created_at, h.sha256`,
      [taskId],
      (row) => textColumn(row, 'sha256'),
    );
  }

  /**
   * Queues re-score jobs (DECISIONS §17) on the exposure's shard (null: a task without a budget): the task's leader
   * first, then, when `held`, every result held for rotation; none for a submission that already has one open.
   * How many were queued.
   */
  async queueRescores(manager: EntityManager, taskId: string, exposureId: string | null, held: boolean): Promise<number> {
    const insert = (which: string): Promise<string[]> =>
      queryRows(
        manager,
        `WITH queued AS (
           INSERT INTO validator_jobs (submission_id, task_id, status, attempts, reason, exposure_id, created_at, updated_at)
           SELECT s.id, s.task_id, 'pending', 0, 'rescore', $2, clock_timestamp(), clock_timestamp() FROM submissions s
           WHERE s.task_id = $1 AND ${which}
             AND NOT EXISTS (SELECT 1 FROM validator_jobs j
                             WHERE j.submission_id = s.id AND j.reason = 'rescore' AND j.status <> 'completed' AND j.exposure_id IS NOT DISTINCT FROM $2)
           ORDER BY s.created_at, s.id
           RETURNING id
         )
         SELECT id FROM queued`,
        [taskId, exposureId],
        (row) => textColumn(row, 'id'),
      );
    const leader = await insert(`s.id = (SELECT submission_id FROM best_results WHERE task_id = $1)`);
    const others = held ? await insert(`s.status = 'accepted' AND s.release = 'held_for_rotation'`) : [];
    return leader.length + others.length;
  }

  async countOpenRescores(manager: EntityManager, exposureId: string): Promise<number> {
    const [row] = await queryRows(
      manager,
      `SELECT count(*)::int AS open FROM validator_jobs WHERE exposure_id = $1 AND reason = 'rescore' AND status <> 'completed'`,
      [exposureId],
      (r) => Number(r.open),
    );
    return row ?? 0;
  }

  /** Whether this submission's re-score on the exposure's shard is still to come back. */
  async rescorePending(manager: EntityManager, exposureId: string, submissionId: string): Promise<boolean> {
    const [row] = await queryRows(
      manager,
      `SELECT EXISTS (SELECT 1 FROM validator_jobs WHERE exposure_id = $1 AND submission_id = $2 AND reason = 'rescore' AND status <> 'completed') AS pending`,
      [exposureId, submissionId],
      (r) => r.pending === true,
    );
    return row ?? false;
  }

  /**
   * The results held for rotation whose raw metric on this exposure's shard is known (its latest accepted
   * verification scored there), oldest verification first: what waited for the leader's re-score.
   */
  heldOn(manager: EntityManager, exposureId: string, shardSha256: string | null): Promise<{ verificationId: string; submissionId: string; raw: number; perItem: number[] | null }[]> {
    return queryRows(
      manager,
      `SELECT id, submission_id, metric_value, per_item FROM (
         SELECT DISTINCT ON (v.submission_id) v.submission_id, v.metric_value, v.per_item, v.created_at, v.id
         FROM verifications v JOIN submissions s ON s.id = v.submission_id
         WHERE v.exposure_id = $1 AND v.heldout_sha256 IS NOT DISTINCT FROM $2 AND v.status = 'accepted' AND v.metric_value IS NOT NULL
           AND s.status = 'accepted' AND s.release = 'held_for_rotation'
         ORDER BY v.submission_id, v.created_at DESC, v.id DESC
       ) latest
       ORDER BY created_at, id`,
      [exposureId, shardSha256],
      (row) => ({
        verificationId: textColumn(row, 'id'),
        submissionId: textColumn(row, 'submission_id'),
        raw: Number(row.metric_value),
        perItem: perItemColumn(row.per_item),
      }),
    );
  }

  /** The per-item values of the submission's latest accepted verification on this shard that reported them; null when none did. */
  async perItemOf(manager: EntityManager, submissionId: string, shardSha256: string | null): Promise<number[] | null> {
    const [row] = await queryRows(
      manager,
      `SELECT per_item FROM verifications
       WHERE submission_id = $1 AND heldout_sha256 IS NOT DISTINCT FROM $2 AND status = 'accepted' AND per_item IS NOT NULL
       ORDER BY created_at DESC, id DESC LIMIT 1`,
      [submissionId, shardSha256],
      (r) => perItemColumn(r.per_item),
    );
    return row ?? null;
  }

  /** What a held verification released once the leader's re-score came back. */
  async setVerificationRelease(manager: EntityManager, verificationId: string, release: ReleaseState, released: number | null): Promise<void> {
    await manager.query(`UPDATE verifications SET release = $2, released_metric_value = $3 WHERE id = $1`, [verificationId, release, released]);
  }

  /** The submission holding the task's best, null before the first accepted result. */
  async leader(manager: EntityManager, taskId: string): Promise<string | null> {
    const [row] = await queryRows(manager, `SELECT submission_id FROM best_results WHERE task_id = $1`, [taskId], (r) => textColumn(r, 'submission_id'));
    return row ?? null;
  }
}

/** A jsonb `per_item` as stored from a validated body: an array of finite numbers, else null. */
function perItemColumn(value: unknown): number[] | null {
  return Array.isArray(value) && value.every((item) => typeof item === 'number' && Number.isFinite(item)) ? (value as number[]) : null;
}
