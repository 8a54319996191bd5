import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsObject, IsOptional, IsString } from 'class-validator';
import { IsMetricRecord, MaxProperties } from '../common/validators';
import { VERDICT_STATUSES, VerificationStatus } from '../enums';

/** Body of `POST /api/v1/submissions/{id}/peer-evaluate` (signed, peer_evaluation tasks). */
export class PeerEvaluateDto {
  @ApiProperty({ description: "The evaluator's verdict.", enum: [...VERDICT_STATUSES], enumName: 'VerdictStatus' })
  @IsIn(VERDICT_STATUSES)
  status!: VerificationStatus;

  @ApiPropertyOptional({ description: 'Metrics the evaluator observed (names of 1..120 characters, finite numbers); `accepted` needs the task metric.', type: 'object', additionalProperties: { type: 'number' }, maxProperties: 64, default: {} })
  @IsObject()
  @MaxProperties(64)
  @IsMetricRecord()
  observed_metrics: Record<string, unknown> = {};

  @ApiPropertyOptional({ description: 'Free-form notes.', type: String, nullable: true, default: null })
  @IsOptional()
  @IsString()
  notes: string | null = null;
}
