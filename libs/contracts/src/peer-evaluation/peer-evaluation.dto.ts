import { ApiProperty } from '@nestjs/swagger';
import { VerificationStatus } from '../enums';

/** One miner's evaluation of another miner's submission. */
export class PeerEvaluationDto {
  @ApiProperty({ type: String, description: 'Evaluation id.' })
  id!: string;

  @ApiProperty({ type: String, description: 'Evaluated submission.' })
  submission_id!: string;

  @ApiProperty({ type: String, description: 'Hotkey of the evaluating miner.' })
  evaluator_hotkey!: string;

  @ApiProperty({ description: 'Verdict.', enum: VerificationStatus, enumName: 'VerificationStatus' })
  status!: VerificationStatus;

  @ApiProperty({ description: 'Metrics the evaluator observed.', type: 'object', additionalProperties: true })
  observed_metrics!: Record<string, unknown>;

  @ApiProperty({ description: 'Free-form notes.', type: String, nullable: true })
  notes!: string | null;

  @ApiProperty({ description: 'Creation time.', type: String, format: 'date-time' })
  created_at!: string;

  @ApiProperty({ description: 'When the evaluation was completed.', type: String, format: 'date-time', nullable: true })
  completed_at!: string | null;
}
