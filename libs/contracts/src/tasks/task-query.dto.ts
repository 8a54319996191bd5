import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsEnum, IsOptional } from 'class-validator';
import { TaskState } from '../enums';
import { PageQueryDto } from '../common/page-query.dto';

/** Query of `GET /api/v1/tasks`: every task by default, newest first, paged like the other lists. */
export class TaskQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Only tasks in this state (e.g. `live` for the ones taking claims).', enum: TaskState, enumName: 'TaskState' })
  @IsOptional()
  @IsEnum(TaskState)
  task_state?: TaskState;
}
