import { ApiProperty } from '@nestjs/swagger';
import { VerificationStatus } from '../enums';

/** A recorded validator result (DECISIONS §6); also the answer of verify and job result. */
export class VerificationSummaryDto {
  @ApiProperty({ type: String, description: 'Verification id.' })
  id!: string;

  @ApiProperty({ type: String, description: 'Verified submission.' })
  submission_id!: string;

  @ApiProperty({ type: String, description: 'Validator job the result completed.' })
  job_id!: string;

  @ApiProperty({ type: String, description: 'Task id.' })
  task_id!: string;

  @ApiProperty({ type: String, description: 'Hotkey of the validator.' })
  validator_hotkey!: string;

  @ApiProperty({ description: 'Verdict.', enum: VerificationStatus, enumName: 'VerificationStatus' })
  status!: VerificationStatus;

  @ApiProperty({ type: String, description: 'Task metric name.' })
  metric_name!: string;

  @ApiProperty({ description: 'Observed value of the task metric, when the replay produced one.', type: Number, nullable: true })
  metric_value!: number | null;

  @ApiProperty({ description: 'Metrics the replay produced.', type: 'object', additionalProperties: true })
  observed_metrics!: Record<string, unknown>;

  @ApiProperty({ description: 'Validator notes.', type: String, nullable: true })
  notes!: string | null;

  @ApiProperty({ description: 'Creation time.', type: String, format: 'date-time' })
  created_at!: string;
}
