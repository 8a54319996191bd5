import { ApiProperty } from '@nestjs/swagger';
import { IdeaRewardDto } from '../idea-rewards/idea-reward.dto';
import { PeerConsensusDto } from '../peer-evaluation/peer-consensus.dto';
import { PeerEvaluationDto } from '../peer-evaluation/peer-evaluation.dto';
import { VerificationSummaryDto } from '../validator-jobs/verification-summary.dto';
import { SubmissionDto } from './submission.dto';
import { ApiText } from '../common/api-fields';

/** `GET /api/v1/submissions/{id}/detail` (owner only): a submission with everything decided about it. */
export class SubmissionDetailDto {
  @ApiProperty({ description: 'The submission.', type: () => SubmissionDto })
  submission!: SubmissionDto;

  @ApiProperty({ description: 'Validator results.', type: () => [VerificationSummaryDto] })
  verifications!: VerificationSummaryDto[];

  @ApiProperty({ description: 'Peer evaluations (peer_evaluation tasks).', type: () => [PeerEvaluationDto] })
  peer_evaluations!: PeerEvaluationDto[];

  @ApiProperty({ description: 'Peer consensus, on peer_evaluation tasks.', type: () => PeerConsensusDto, nullable: true })
  peer_consensus!: PeerConsensusDto | null;

  @ApiProperty({ description: 'Idea rewards this submission took part in.', type: () => [IdeaRewardDto] })
  idea_rewards!: IdeaRewardDto[];

  @ApiText('Task metric name.')
  metric_name!: string;
}
