import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsEnum, IsOptional, IsString } from 'class-validator';
import { VerificationStatus } from '../enums';
import { PageQueryDto } from '../common/page-query.dto';

/** Query of `GET /api/v1/peer-evaluations`: newest first, paged like the other lists. */
export class PeerEvaluationQueryDto extends PageQueryDto {
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
