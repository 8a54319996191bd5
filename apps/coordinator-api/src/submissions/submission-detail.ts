import { EntityManager } from 'typeorm';
import { SubmissionDetailDto } from '@rcs/contracts';
import { toIdeaRewardDto } from '../idea-rewards/idea-reward.mapper';
import { ideaRewardsForSubmission } from '../idea-rewards/idea-rewards.module';
import { peerConsensusFor, peerEvaluationsForSubmission } from '../peer-evaluation/peer-evaluation.readers';
import { TaskEntity } from '../tasks/entities/task.entity';
import { verificationsForSubmission } from '../validation/verifications.readers';
import { SubmissionEntity } from './entities/submission.entity';
import { toSubmissionDto } from './submission.mapper';

/** Everything known about one submission: its verifications, peer evaluations, consensus and idea rewards. */
export async function submissionDetail(manager: EntityManager, task: TaskEntity, submission: SubmissionEntity): Promise<SubmissionDetailDto> {
  const [verifications, peerEvaluations, peerConsensus, ideaRewards] = await Promise.all([
    verificationsForSubmission(manager, submission.id),
    peerEvaluationsForSubmission(manager, submission.id),
    peerConsensusFor(manager, submission.id),
    ideaRewardsForSubmission(manager, submission.id),
  ]);
  return {
    submission: toSubmissionDto(submission),
    verifications,
    peer_evaluations: peerEvaluations,
    peer_consensus: peerConsensus,
    idea_rewards: ideaRewards.map(toIdeaRewardDto),
    metric_name: task.metricName,
  };
}
