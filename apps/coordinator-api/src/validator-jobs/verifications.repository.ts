import { Injectable } from '@nestjs/common';
import { EntityManager, FindOptionsWhere } from 'typeorm';
import { isUuid, VerificationQueryDto } from '@rcs/contracts';
import { insertReturningEntity } from '@rcs/persistence';
import { VerificationEntity } from './entities/verification.entity';

export type NewVerification = Omit<VerificationEntity, 'id' | 'createdAt' | 'heldoutSha256'>;

/** The verifications table, always through the caller's manager; a verification is written only with its decision. */
@Injectable()
export class VerificationsRepository {
  /** Records a decision's verification; `verifications_one_per_job_unique` keeps one per job. */
  async insert(manager: EntityManager, verification: NewVerification): Promise<VerificationEntity> {
    return insertReturningEntity(
      manager,
      VerificationEntity,
      // clock_timestamp(), not now(): decisions of a task commit in lock order, not in transaction-start order.
      `INSERT INTO verifications
         (submission_id, job_id, task_id, validator_hotkey, status, metric_name, metric_value, observed_metrics, notes, replay_log,
          release, released_metric_value, exposure_id, metric_withheld, per_item, created_at, heldout_sha256)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11, $12, $13, $14, $15::jsonb, clock_timestamp(),
               -- The held-out shard the job was given: the audit of which data decided (DECISIONS.md §6).
               (SELECT heldout_sha256 FROM validator_jobs WHERE id = $2))
       RETURNING id`,
      [
        verification.submissionId,
        verification.jobId,
        verification.taskId,
        verification.validatorHotkey,
        verification.status,
        verification.metricName,
        verification.metricValue,
        JSON.stringify(verification.observedMetrics),
        verification.notes,
        verification.replayLog,
        verification.release,
        verification.releasedMetricValue,
        verification.exposureId,
        verification.metricWithheld,
        verification.perItem === null ? null : JSON.stringify(verification.perItem),
      ],
    );
  }

  findForJob(manager: EntityManager, jobId: string): Promise<VerificationEntity | null> {
    return manager.findOne(VerificationEntity, { where: { jobId } });
  }

  /** Newest first (`created_at DESC, id DESC`), paged; a submission id that is not a uuid matches nothing. */
  async list(manager: EntityManager, query: VerificationQueryDto): Promise<VerificationEntity[]> {
    if (query.submission_id !== undefined && !isUuid(query.submission_id)) return [];
    const where: FindOptionsWhere<VerificationEntity> = {};
    if (query.submission_id !== undefined) where.submissionId = query.submission_id;
    if (query.status !== undefined) where.status = query.status;
    return manager.find(VerificationEntity, { where, order: { createdAt: 'DESC', id: 'DESC' }, take: query.limit, skip: query.offset });
  }

  /** The newest verification of a submission, if any. */
  latest(manager: EntityManager, submissionId: string): Promise<VerificationEntity | null> {
    return manager.findOne(VerificationEntity, { where: { submissionId }, order: { createdAt: 'DESC', id: 'DESC' } });
  }
}
