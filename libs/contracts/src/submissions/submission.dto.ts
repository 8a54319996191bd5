import { ApiProperty } from '@nestjs/swagger';
import { SubmissionStatus } from '../enums';

/** A submission as signed routes answer it. */
export class SubmissionDto {
  @ApiProperty({ type: String, description: 'Submission id.' })
  id!: string;

  @ApiProperty({ type: String, description: 'Task id.' })
  task_id!: string;

  @ApiProperty({ type: String, description: 'Claim the submission used.' })
  claim_id!: string;

  @ApiProperty({ type: String, description: 'Hotkey of the submitting miner.' })
  miner_hotkey!: string;

  @ApiProperty({ type: String, description: 'Base ref the patch applies to.' })
  base_ref!: string;

  @ApiProperty({ type: String, description: 'Unified git diff (may be empty).' })
  patch!: string;

  @ApiProperty({ type: String, description: 'What changed and why.' })
  summary!: string;

  @ApiProperty({ description: 'Idea proposed for later miners.', type: String, nullable: true })
  proposed_idea!: string | null;

  @ApiProperty({ description: 'Submission whose idea this implements.', type: String, nullable: true })
  implemented_submission_id!: string | null;

  @ApiProperty({ description: 'Artifact URI.', type: String, nullable: true })
  artifact_uri!: string | null;

  @ApiProperty({ description: 'Lowercase SHA-256 of the artifact.', type: String, nullable: true })
  artifact_sha256!: string | null;

  @ApiProperty({ description: 'Artifact size in bytes.', type: 'integer', nullable: true })
  artifact_size_bytes!: number | null;

  @ApiProperty({ description: "The miner's own benchmark log.", type: String, nullable: true })
  execution_log!: string | null;

  @ApiProperty({ description: 'Metrics the miner claimed.', type: 'object', additionalProperties: true })
  claimed_metrics!: Record<string, unknown>;

  @ApiProperty({ description: 'Submission status.', enum: SubmissionStatus, enumName: 'SubmissionStatus' })
  status!: SubmissionStatus;

  @ApiProperty({ description: 'Creation time.', type: String, format: 'date-time' })
  created_at!: string;

  @ApiProperty({ description: 'Last change.', type: String, format: 'date-time' })
  updated_at!: string;
}
