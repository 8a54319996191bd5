import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CompetitionMode, SubmissionDetailDto } from '@rcs/contracts';
import { IdeaRewardsRepository, toIdeaRewardDto } from '../idea-rewards/idea-rewards.module';
import { toPeerConsensusDto, toPeerEvaluationDto } from '../peer-evaluation/peer-evaluation.mapper';
import { PeerEvaluationRepository } from '../peer-evaluation/peer-evaluation.module';
import { TaskEntity } from '../tasks/entities/task.entity';
import { toVerificationSummaryDto } from '../validator-jobs/verification.mapper';
import { VerificationsRepository } from '../validator-jobs/verifications.readers';
import { SubmissionEntity } from './entities/submission.entity';
import { toSubmissionDto } from './submission.mapper';

/** The repositories the detail reads. */
export interface SubmissionDetailReaders {
  verifications: VerificationsRepository;
  peerEvaluations: PeerEvaluationRepository;
  ideaRewards: IdeaRewardsRepository;
}

/** Everything known about one submission: its verifications, peer evaluations, consensus and idea rewards. */
export async function submissionDetail(
  manager: EntityManager,
  readers: SubmissionDetailReaders,
  task: TaskEntity,
  submission: SubmissionEntity,
): Promise<SubmissionDetailDto> {
  const peerEvaluated = task.competitionMode === CompetitionMode.PeerEvaluation;
  const [verifications, peerEvaluations, peerCounts, ideaRewards] = await Promise.all([
    readers.verifications.listForSubmission(manager, submission.id),
    readers.peerEvaluations.listForSubmission(manager, submission.id),
    peerEvaluated ? readers.peerEvaluations.countsOf(manager, submission.id) : null,
    readers.ideaRewards.listForSubmission(manager, submission.id),
  ]);
  return {
    submission: toSubmissionDto(submission),
    verifications: verifications.map((verification) => toVerificationSummaryDto(verification)),
    peer_evaluations: peerEvaluations.map(toPeerEvaluationDto),
    // Only peer_evaluation tasks have a consensus.
    peer_consensus: peerCounts === null ? null : toPeerConsensusDto(submission, task, peerCounts),
    idea_rewards: ideaRewards.map(toIdeaRewardDto),
    metric_name: task.metricName,
  };
}

/** The submission detail with its readers injected, for each service that answers it (submissions, validator scans). */
@Injectable()
export class SubmissionDetails {
  private readonly readers: SubmissionDetailReaders;

  constructor(verifications: VerificationsRepository, peerEvaluations: PeerEvaluationRepository, ideaRewards: IdeaRewardsRepository) {
    this.readers = { verifications, peerEvaluations, ideaRewards };
  }

  of(manager: EntityManager, task: TaskEntity, submission: SubmissionEntity): Promise<SubmissionDetailDto> {
    return submissionDetail(manager, this.readers, task, submission);
  }
}
