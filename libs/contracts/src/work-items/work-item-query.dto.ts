import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { ToNumber } from '../common/transforms';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from '../submissions/submission-query.dto';

/** Query of `GET /api/v1/work-items`; `status` is a free string in the spec. Newest first, paged. */
export class WorkItemQueryDto {
  @ApiPropertyOptional({ type: String, description: 'Only items of this task.' })
  @IsOptional()
  @IsString()
  task_id?: string;

  @ApiPropertyOptional({ type: String, description: 'Only items in this status (e.g. `open`).', maxLength: 64 })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  status?: string;

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
