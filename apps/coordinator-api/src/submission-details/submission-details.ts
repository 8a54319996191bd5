import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { PeerConsensusDto, SubmissionDetailDto } from '@rcs/contracts';
import { IdeaRewardsRepository, toIdeaRewardDto } from '../idea-rewards/idea-rewards.module';
import { toPeerEvaluationDto } from '../peer-evaluation/peer-evaluation.mapper';
import { SubmissionEntity } from '../submissions/entities/submission.entity';
import { toSubmissionDto } from '../submissions/submission.mapper';
import { isPeerEvaluated } from '../tasks/competition-modes';
import { TaskEntity } from '../tasks/entities/task.entity';
import { toVerificationSummaryDto } from '../validator-jobs/verification.mapper';
import { toPeerConsensusDto } from './peer-consensus';
import { SubmissionDetailsRepository } from './submission-details.repository';

/** The repositories the detail reads. */
export interface SubmissionDetailReaders {
  details: SubmissionDetailsRepository;
  ideaRewards: IdeaRewardsRepository;
}

/** Everything known about one submission: its verifications, peer evaluations, consensus and idea rewards. */
export async function submissionDetail(
  manager: EntityManager,
  readers: SubmissionDetailReaders,
  task: TaskEntity,
  submission: SubmissionEntity,
): Promise<SubmissionDetailDto> {
  const peerEvaluated = isPeerEvaluated(task.competitionMode);
  const [verifications, peerEvaluations, peerCounts, ideaRewards] = await Promise.all([
    readers.details.verifications(manager, submission.id),
    readers.details.peerEvaluations(manager, submission.id),
    peerEvaluated ? readers.details.peerCounts(manager, submission.id) : null,
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

/** The submission detail with its readers injected, for each service that answers it (submissions, validator scans, peer consensus). */
@Injectable()
export class SubmissionDetails {
  private readonly readers: SubmissionDetailReaders;

  constructor(details: SubmissionDetailsRepository, ideaRewards: IdeaRewardsRepository) {
    this.readers = { details, ideaRewards };
  }

  of(manager: EntityManager, task: TaskEntity, submission: SubmissionEntity): Promise<SubmissionDetailDto> {
    return submissionDetail(manager, this.readers, task, submission);
  }

  /** The peer consensus so far of a submission (of a peer-evaluated task: the caller checks). */
  async consensus(manager: EntityManager, task: TaskEntity, submission: SubmissionEntity): Promise<PeerConsensusDto> {
    return toPeerConsensusDto(submission, task, await this.readers.details.peerCounts(manager, submission.id));
  }
}
