import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Admin } from '@rcs/auth';
import { ApiErrors, ErrorCode, RescoreResponseDto } from '@rcs/contracts';
import { DecisionService } from '../decisions/decisions.module';
import { ExposureService } from '../exposure/exposure.module';

/** The admin re-score (DECISIONS §17): re-score jobs are validator jobs, queued in the task's decision lock. */
@ApiTags('tasks')
@Controller('api/v1/tasks')
export class RescoreController {
  constructor(
    private readonly decisions: DecisionService,
    private readonly exposure: ExposureService,
  ) {}

  @Post(':task_id/rescore')
  @Admin()
  @HttpCode(200)
  @ApiOperation({
    summary: "Re-score a task's leader",
    description:
      'Admin only. Queues validator jobs with `reason: rescore` for the best result (and, under a held-out budget, every result held ' +
      'for rotation); the best restarts from the leader\'s new value. A task whose budget is spent or exhausted first moves to its next ' +
      'uploaded held-out shard. Ask after a benchmark fix.',
  })
  @ApiParam({ name: 'task_id', description: 'Task id (uuid); anything else is 404 `task_not_found`.' })
  @ApiOkResponse({ type: RescoreResponseDto, description: 'What was queued.' })
  @ApiErrors(ErrorCode.InvalidAdminToken, ErrorCode.TaskNotFound, [ErrorCode.AdminUnconfigured, 'ADMIN_TOKENS is not set'])
  async rescore(@Param('task_id') taskId: string): Promise<RescoreResponseDto> {
    const { task, queued, rotated } = await this.decisions.transaction(async (tx) => {
      const locked = await tx.lockTask(taskId);
      return { task: locked, ...(await tx.requestRescore(locked)) };
    });
    const exposure = (await this.exposure.view(this.decisions.manager, [task])).get(task.id) ?? null;
    return { task_id: task.id, queued, rotated, exposure };
  }
}
