import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsEnum, IsInt, IsOptional, Max, Min } from 'class-validator';
import { ToNumber } from '../common/transforms';
import { TaskState } from '../enums';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from '../submissions/submission-query.dto';

/** Query of `GET /api/v1/tasks`: every task by default, newest first, paged like the other lists. */
export class TaskQueryDto {
  @ApiPropertyOptional({ description: 'Only tasks in this state (e.g. `live` for the ones taking claims).', enum: TaskState, enumName: 'TaskState' })
  @IsOptional()
  @IsEnum(TaskState)
  task_state?: TaskState;

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
