import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Public } from '@rcs/auth';
import { ApiErrors, ApiValidationFailure, ErrorCode, TaskIdeaDto, TaskIdeaQueryDto } from '@rcs/contracts';
import { toTaskIdeaDto } from './submission.mapper';
import { SubmissionsService } from './submissions.service';

@ApiTags('submissions')
@Controller('api/v1/tasks')
export class TaskIdeasController {
  constructor(private readonly submissions: SubmissionsService) {}

  @Get(':task_id/ideas')
  @Public()
  @ApiOperation({
    summary: "List a task's ideas, newest first",
    description:
      'Public. Every non-rejected submission of the task that proposed a (non-blank) idea; on a centerless task a miner ' +
      "implements another miner's idea by naming its submission_id as implemented_submission_id. Paged.",
  })
  @ApiParam({ name: 'task_id', description: 'Task id (uuid); anything else is 404 `task_not_found`.' })
  @ApiOkResponse({ type: [TaskIdeaDto], description: 'Newest first (created_at, then id).' })
  @ApiValidationFailure('Query fails validation (limit 1..1000, offset >= 0, unknown parameters).')
  @ApiErrors(ErrorCode.TaskNotFound)
  async list(@Param('task_id') taskId: string, @Query() query: TaskIdeaQueryDto): Promise<TaskIdeaDto[]> {
    return (await this.submissions.ideas(taskId, query)).map(toTaskIdeaDto);
  }
}
