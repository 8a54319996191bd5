import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length, Matches } from 'class-validator';
import { ApiText } from '../common/api-fields';
import { BoundedText, MetricsField, OptionalCount, OptionalText } from '../common/request-fields';

export const SHA256_HEX_PATTERN = /^[0-9a-fA-F]{64}$/;

/** Body of `POST /api/v1/submissions` (signed): the spec's create-submission table. */
export class CreateSubmissionDto {
  @ApiText("The signer's active claim this submission uses.")
  @IsString()
  claim_id!: string;

  @BoundedText('Base ref the patch applies to.', 1, 255)
  base_ref!: string;

  @ApiPropertyOptional({ type: String, description: 'Unified git diff (as `git diff --binary` writes it); may be empty when an artifact is given.', default: '' })
  @IsString()
  patch = '';

  @BoundedText('What changed and why.', 1, 8000)
  summary!: string;

  @OptionalText('A fresh idea for later miners (required on centerless tasks).', 4000)
  proposed_idea: string | null = null;

  @OptionalText("Another miner's earlier submission whose idea this implements (centerless).")
  implemented_submission_id: string | null = null;

  @OptionalText('Public, validator-downloadable artifact URI (https).', 2000)
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

  @OptionalCount('Artifact size in bytes.')
  artifact_size_bytes: number | null = null;

  @OptionalText("The miner's own benchmark log.")
  execution_log: string | null = null;

  @MetricsField('Metrics the miner observed (names of 1..120 characters, finite numbers); informative only, never decide acceptance.')
  claimed_metrics: Record<string, unknown> = {};
}
