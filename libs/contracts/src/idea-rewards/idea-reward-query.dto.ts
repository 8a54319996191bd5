import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { ToNumber } from '../common/transforms';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from '../submissions/submission-query.dto';

/** Query of `GET /api/v1/idea-rewards`: newest first, paged like the other lists. */
export class IdeaRewardQueryDto {
  @ApiPropertyOptional({ type: String, description: 'Only rewards of this task.' })
  @IsOptional()
  @IsString()
  task_id?: string;

  @ApiPropertyOptional({ type: String, description: 'Only rewards where this submission is the idea or the improvement.' })
  @IsOptional()
  @IsString()
  submission_id?: string;

  @ApiPropertyOptional({ type: String, description: 'Only rewards of this proposer.' })
  @IsOptional()
  @IsString()
  proposer_hotkey?: string;

  @ApiPropertyOptional({ type: String, description: 'Only rewards of this implementer.' })
  @IsOptional()
  @IsString()
  implementer_hotkey?: string;

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
