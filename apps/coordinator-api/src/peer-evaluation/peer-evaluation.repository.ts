import { Injectable } from '@nestjs/common';
import { EntityManager, FindOptionsWhere } from 'typeorm';
import { isUuid, PeerEvaluationQueryDto } from '@rcs/contracts';
import { insertReturningEntity } from '@rcs/persistence';
import { storedHotkey } from '../common/hotkeys';
import { PeerEvaluationEntity } from './entities/peer-evaluation.entity';

/** The unique constraint behind "one evaluation per evaluator and submission". */
export const ONE_EVALUATION_PER_EVALUATOR = 'peer_evaluations_one_per_evaluator_unique';
/** The unique constraint behind "one evaluation per owner coldkey and submission" (DECISIONS.md §6). */
export const ONE_EVALUATION_PER_OWNER = 'peer_evaluations_one_per_owner_unique';

export type NewPeerEvaluation = Pick<
  PeerEvaluationEntity,
  'submissionId' | 'taskId' | 'evaluatorHotkey' | 'evaluatorOwner' | 'status' | 'observedMetrics' | 'metricValue' | 'notes'
>;

/** The peer_evaluations table, always through the caller's manager (the decision they lead to goes through the decision service). */
@Injectable()
export class PeerEvaluationRepository {
  /** Stores a completed evaluation (created and completed at the transaction's time); a second one by the same evaluator violates ONE_EVALUATION_PER_EVALUATOR, by the same owner ONE_EVALUATION_PER_OWNER. */
  async insert(manager: EntityManager, evaluation: NewPeerEvaluation): Promise<PeerEvaluationEntity> {
    return insertReturningEntity(
      manager,
      PeerEvaluationEntity,
      `INSERT INTO peer_evaluations (submission_id, task_id, evaluator_hotkey, evaluator_owner, status, observed_metrics, metric_value, notes, completed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now()) RETURNING id`,
      [
        evaluation.submissionId,
        evaluation.taskId,
        evaluation.evaluatorHotkey,
        evaluation.evaluatorOwner,
        evaluation.status,
        JSON.stringify(evaluation.observedMetrics),
        evaluation.metricValue,
        evaluation.notes,
      ],
    );
  }

  /** The evaluation of `submissionId` by any hotkey of `owner`, if one exists. */
  findByOwner(manager: EntityManager, submissionId: string, owner: string): Promise<PeerEvaluationEntity | null> {
    return manager.findOne(PeerEvaluationEntity, { where: { submissionId, evaluatorOwner: owner } });
  }

  /** The evaluations of one submission, newest first; none for an id that is not a uuid. */
  async listForSubmission(manager: EntityManager, submissionId: string): Promise<PeerEvaluationEntity[]> {
    if (!isUuid(submissionId)) return [];
    return manager.find(PeerEvaluationEntity, { where: { submissionId }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  /** `GET /peer-evaluations`: newest first (`created_at DESC, id DESC`), filtered, paged. */
  async list(manager: EntityManager, query: PeerEvaluationQueryDto): Promise<PeerEvaluationEntity[]> {
    // A submission id that is not a uuid names no submission, and must never reach the uuid column.
    if (query.submission_id !== undefined && !isUuid(query.submission_id)) return [];
    const evaluator = storedHotkey(query.evaluator_hotkey);
    const where: FindOptionsWhere<PeerEvaluationEntity> = {};
    if (query.submission_id !== undefined) where.submissionId = query.submission_id;
    if (evaluator !== undefined) where.evaluatorHotkey = evaluator;
    if (query.status !== undefined) where.status = query.status;
    return manager.find(PeerEvaluationEntity, { where, order: { createdAt: 'DESC', id: 'DESC' }, take: query.limit, skip: query.offset });
  }
}
