import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsObject, IsOptional, IsString } from 'class-validator';
import { IsMetricRecord, MaxProperties } from '../common/validators';
import { VERDICT_STATUSES, VerificationStatus } from '../enums';

/** Body of `POST /api/v1/submissions/{id}/verify` (allowlisted validator): an observed replay result. */
export class VerifyDto {
  @ApiProperty({ description: 'Replay verdict; never `accepted` on the strength of claimed metrics.', enum: [...VERDICT_STATUSES], enumName: 'VerdictStatus' })
  @IsIn(VERDICT_STATUSES)
  status!: VerificationStatus;

  @ApiPropertyOptional({
    description: 'Metrics the replay produced (names of 1..120 characters, finite numbers); `accepted` needs the task metric.',
    type: 'object',
    additionalProperties: { type: 'number' },
    maxProperties: 64,
    default: {},
  })
  @IsObject()
  @MaxProperties(64)
  @IsMetricRecord()
  observed_metrics: Record<string, unknown> = {};

  @ApiPropertyOptional({ description: 'Free-form notes (why a replay failed, for instance).', type: String, nullable: true, default: null })
  @IsOptional()
  @IsString()
  notes: string | null = null;

  @ApiPropertyOptional({ description: 'Replay log; stored and served only to admins.', type: String, nullable: true, default: null })
  @IsOptional()
  @IsString()
  replay_log: string | null = null;
}
