import { VerificationStatus } from '../enums';
import { ApiEnum, ApiInteger, ApiNumberOrNull, ApiText } from '../common/api-fields';

/** Consensus of the peer evaluations of one submission (DECISIONS §6). */
export class PeerConsensusDto {
  @ApiText('Submission id.')
  submission_id!: string;

  @ApiInteger("The task's `min_peer_evaluations`.")
  threshold!: number;

  @ApiInteger('Accepted evaluations.')
  accepted_count!: number;

  @ApiInteger('Rejected evaluations.')
  rejected_count!: number;

  @ApiInteger('Error evaluations.')
  error_count!: number;

  @ApiEnum(VerificationStatus, '`pending` until a count reaches the threshold.')
  status!: VerificationStatus;

  @ApiText('Task metric name.')
  metric_name!: string;

  @ApiNumberOrNull('Median of the metric values of the accepted evaluations.')
  consensus_metric_value!: number | null;
}
