import { ApiProperty } from '@nestjs/swagger';
import { VerificationStatus } from '../enums';

/** Consensus of the peer evaluations of one submission (DECISIONS §6). */
export class PeerConsensusDto {
  @ApiProperty({ type: String, description: 'Submission id.' })
  submission_id!: string;

  @ApiProperty({ description: "The task's `min_peer_evaluations`.", type: 'integer' })
  threshold!: number;

  @ApiProperty({ description: 'Accepted evaluations.', type: 'integer' })
  accepted_count!: number;

  @ApiProperty({ description: 'Rejected evaluations.', type: 'integer' })
  rejected_count!: number;

  @ApiProperty({ description: 'Error evaluations.', type: 'integer' })
  error_count!: number;

  @ApiProperty({ description: '`pending` until a count reaches the threshold.', enum: VerificationStatus, enumName: 'VerificationStatus' })
  status!: VerificationStatus;

  @ApiProperty({ type: String, description: 'Task metric name.' })
  metric_name!: string;

  @ApiProperty({ description: 'Median of the metric values of the accepted evaluations.', type: Number, nullable: true })
  consensus_metric_value!: number | null;
}
