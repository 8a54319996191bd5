import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsEnum, IsOptional, IsString } from 'class-validator';
import { VerificationStatus } from '../enums';

/** Query of `GET /api/v1/peer-evaluations`. */
export class PeerEvaluationQueryDto {
  @ApiPropertyOptional({ type: String, description: 'Only evaluations of this submission.' })
  @IsOptional()
  @IsString()
  submission_id?: string;

  @ApiPropertyOptional({ type: String, description: 'Only evaluations by this hotkey.' })
  @IsOptional()
  @IsString()
  evaluator_hotkey?: string;

  @ApiPropertyOptional({ description: 'Only evaluations with this verdict.', enum: VerificationStatus, enumName: 'VerificationStatus' })
  @IsOptional()
  @IsEnum(VerificationStatus)
  status?: VerificationStatus;
}
