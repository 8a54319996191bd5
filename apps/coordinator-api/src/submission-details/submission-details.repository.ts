import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { isUuid, VerificationStatus } from '@rcs/contracts';
import { intColumn, queryOneRow } from '@rcs/persistence';
import { PeerEvaluationEntity } from '../peer-evaluation/entities/peer-evaluation.entity';
import { VerificationEntity } from '../validator-jobs/entities/verification.entity';
import { PeerCounts } from './peer-consensus';

/**
 * What the submission detail reads of one submission in the verifications and peer_evaluations tables,
 * each one statement through the caller's manager. A read model of its own, so that the submissions and
 * validator-jobs domains, which both answer the detail, need neither each other nor the other's module.
 */
@Injectable()
export class SubmissionDetailsRepository {
  /** A submission's verifications, newest first; none for an id that is not a uuid. */
  async verifications(manager: EntityManager, submissionId: string): Promise<VerificationEntity[]> {
    if (!isUuid(submissionId)) return [];
    return manager.find(VerificationEntity, { where: { submissionId }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  /** A submission's peer evaluations, newest first; none for an id that is not a uuid. */
  async peerEvaluations(manager: EntityManager, submissionId: string): Promise<PeerEvaluationEntity[]> {
    if (!isUuid(submissionId)) return [];
    return manager.find(PeerEvaluationEntity, { where: { submissionId }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  /** A submission's peer evaluations counted by verdict. */
  peerCounts(manager: EntityManager, submissionId: string): Promise<PeerCounts> {
    return queryOneRow(
      manager,
      `SELECT count(*) FILTER (WHERE status = $2)::int AS accepted,
              count(*) FILTER (WHERE status = $3)::int AS rejected,
              count(*) FILTER (WHERE status = $4)::int AS error
       FROM peer_evaluations WHERE submission_id = $1`,
      [submissionId, VerificationStatus.Accepted, VerificationStatus.Rejected, VerificationStatus.Error],
      (row) => ({ accepted: intColumn(row, 'accepted'), rejected: intColumn(row, 'rejected'), error: intColumn(row, 'error') }),
    );
  }
}
