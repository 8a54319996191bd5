import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsEnum, IsOptional, IsString } from 'class-validator';
import { VerificationStatus } from '../enums';
import { PageQueryDto } from '../common/page-query.dto';

/** Query of `GET /api/v1/verifications`: newest first, paged like the other lists. */
export class VerificationQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ type: String, description: 'Only verifications of this submission.' })
  @IsOptional()
  @IsString()
  submission_id?: string;

  @ApiPropertyOptional({ description: 'Only verifications with this verdict.', enum: VerificationStatus, enumName: 'VerificationStatus' })
  @IsOptional()
  @IsEnum(VerificationStatus)
  status?: VerificationStatus;
}
