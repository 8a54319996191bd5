import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsEnum, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { ToNumber } from '../common/transforms';
import { VerificationStatus } from '../enums';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from '../submissions/submission-query.dto';

/** Query of `GET /api/v1/verifications`: newest first, paged like the other lists. */
export class VerificationQueryDto {
  @ApiPropertyOptional({ type: String, description: 'Only verifications of this submission.' })
  @IsOptional()
  @IsString()
  submission_id?: string;

  @ApiPropertyOptional({ description: 'Only verifications with this verdict.', enum: VerificationStatus, enumName: 'VerificationStatus' })
  @IsOptional()
  @IsEnum(VerificationStatus)
  status?: VerificationStatus;

  @ApiPropertyOptional({ description: 'Page size.', type: 'integer', minimum: 1, maximum: MAX_PAGE_LIMIT, default: DEFAULT_PAGE_LIMIT })
  @ToNumber()
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_LIMIT)
  limit: number = DEFAULT_PAGE_LIMIT;

  @ApiPropertyOptional({ description: 'Rows to skip.', type: 'integer', minimum: 0, default: 0 })
  @ToNumber()
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  offset = 0;
}
