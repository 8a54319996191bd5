import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsObject, IsOptional, IsString, Length, Matches, Max, MaxLength, Min } from 'class-validator';
import { IsMetricRecord, MaxProperties } from '../common/validators';
import { ApiText } from '../common/api-fields';

export const SHA256_HEX_PATTERN = /^[0-9a-fA-F]{64}$/;

/** Body of `POST /api/v1/submissions` (signed): the spec's create-submission table. */
export class CreateSubmissionDto {
  @ApiText("The signer's active claim this submission uses.")
  @IsString()
  claim_id!: string;

  @ApiProperty({ type: String, description: 'Base ref the patch applies to.', minLength: 1, maxLength: 255 })
  @IsString()
  @Length(1, 255)
  base_ref!: string;

  @ApiPropertyOptional({ type: String, description: 'Unified git diff (as `git diff --binary` writes it); may be empty when an artifact is given.', default: '' })
  @IsString()
  patch = '';

  @ApiProperty({ type: String, description: 'What changed and why.', minLength: 1, maxLength: 8000 })
  @IsString()
  @Length(1, 8000)
  summary!: string;

  @ApiPropertyOptional({ description: 'A fresh idea for later miners (required on centerless tasks).', type: String, nullable: true, maxLength: 4000, default: null })
  @IsOptional()
  @IsString()
  @MaxLength(4000)
  proposed_idea: string | null = null;

  @ApiPropertyOptional({ description: "Another miner's earlier submission whose idea this implements (centerless).", type: String, nullable: true, default: null })
  @IsOptional()
  @IsString()
  implemented_submission_id: string | null = null;

  @ApiPropertyOptional({ description: 'Public, validator-downloadable artifact URI (https).', type: String, nullable: true, maxLength: 2000, default: null })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  artifact_uri: string | null = null;

  @ApiPropertyOptional({
    description: 'SHA-256 of the artifact bytes, 64 hex characters (stored lowercase).',
    type: String,
    nullable: true,
    minLength: 64,
    maxLength: 64,
    pattern: SHA256_HEX_PATTERN.source,
    default: null,
  })
  @IsOptional()
  @IsString()
  @Length(64, 64)
  @Matches(SHA256_HEX_PATTERN)
  artifact_sha256: string | null = null;

  @ApiPropertyOptional({ description: 'Artifact size in bytes.', type: 'integer', nullable: true, minimum: 0, default: null })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  artifact_size_bytes: number | null = null;

  @ApiPropertyOptional({ description: "The miner's own benchmark log.", type: String, nullable: true, default: null })
  @IsOptional()
  @IsString()
  execution_log: string | null = null;

  @ApiPropertyOptional({
    description: 'Metrics the miner observed (names of 1..120 characters, finite numbers); informative only, never decide acceptance.',
    type: 'object',
    additionalProperties: { type: 'number' },
    maxProperties: 64,
    default: {},
  })
  @IsObject()
  @MaxProperties(64)
  @IsMetricRecord()
  claimed_metrics: Record<string, unknown> = {};
}
