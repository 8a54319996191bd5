import { Injectable } from '@nestjs/common';
import { EntityManager, FindOptionsWhere } from 'typeorm';
import { SubmissionQueryDto, SubmissionStatus } from '@rcs/contracts';
import { SubmissionEntity } from './entities/submission.entity';

/** A submission about to be stored; it is stored `pending_verification`. */
export type NewSubmission = Pick<
  SubmissionEntity,
  | 'taskId'
  | 'claimId'
  | 'minerHotkey'
  | 'baseRef'
  | 'patch'
  | 'summary'
  | 'proposedIdea'
  | 'implementedSubmissionId'
  | 'artifactUri'
  | 'artifactSha256'
  | 'artifactSizeBytes'
  | 'executionLog'
  | 'claimedMetrics'
>;

/** The submissions table, always through the caller's manager (decisions are recorded by the decision service). */
@Injectable()
export class SubmissionsRepository {
  /** Centerless submissions of one task take turns (their idea rules read earlier submissions), until the transaction ends. */
  async lockIdeasOf(manager: EntityManager, taskId: string): Promise<void> {
    await manager.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`submissions:ideas:${taskId}`]);
  }

  insertPending(manager: EntityManager, submission: NewSubmission): Promise<SubmissionEntity> {
    return manager.save(manager.create(SubmissionEntity, { ...submission, status: SubmissionStatus.PendingVerification }));
  }

  find(manager: EntityManager, submissionId: string): Promise<SubmissionEntity | null> {
    return manager.findOne(SubmissionEntity, { where: { id: submissionId } });
  }

  /** The id of the claim's submission, if it has one. */
  findIdOfClaim(manager: EntityManager, claimId: string): Promise<Pick<SubmissionEntity, 'id'> | null> {
    return manager.findOne(SubmissionEntity, { where: { claimId }, select: { id: true } });
  }

  /** Whether another miner has a non-rejected submission on the task carrying a (non-blank) idea. */
  otherMinerHasIdea(manager: EntityManager, taskId: string, hotkey: string): Promise<boolean> {
    return manager
      .createQueryBuilder(SubmissionEntity, 's')
      .where('s.taskId = :taskId AND s.minerHotkey <> :hotkey AND s.status <> :rejected', {
        taskId,
        hotkey,
        rejected: SubmissionStatus.Rejected,
      })
      // Non-blank, as hasIdea() reads it.
      .andWhere("s.proposed_idea ~ '\\S'")
      .getExists();
  }

  /** Newest first (`created_at DESC, id DESC`), filtered, paged; the caller has checked that a task id is a uuid. */
  list(manager: EntityManager, query: SubmissionQueryDto): Promise<SubmissionEntity[]> {
    const where: FindOptionsWhere<SubmissionEntity> = {};
    if (query.task_id !== undefined) where.taskId = query.task_id;
    if (query.status !== undefined) where.status = query.status;
    return manager.find(SubmissionEntity, { where, order: { createdAt: 'DESC', id: 'DESC' }, take: query.limit, skip: query.offset });
  }
}
