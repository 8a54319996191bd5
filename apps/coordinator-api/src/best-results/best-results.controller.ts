import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { BestResultChangeDto, BestResultDto, BestResultHistoryQueryDto, ErrorDetailDto, ValidationErrorDto } from '@rcs/contracts';
import { toBestResultChangeDto, toBestResultDto } from './best-result.mapper';
import { BestResultsService } from './best-results.service';

const TASK_ID = { name: 'task_id', description: 'Task id (uuid); anything else is 404 `task_not_found`.' };

/** Shares the tasks prefix; holds only the best-result routes of a task. */
@ApiTags('best-results')
@Controller('api/v1/tasks')
export class BestResultsController {
  constructor(private readonly bestResults: BestResultsService) {}

  @Get(':task_id/best')
  @ApiOperation({
    summary: "A task's current best result",
    description: 'Public. The best accepted result by the task\'s ranking rule (direction, metric_resolution, secondary metric, ranking_mode).',
  })
  @ApiParam(TASK_ID)
  @ApiOkResponse({ type: BestResultDto, description: 'The current best.' })
  @ApiNotFoundResponse({ type: ErrorDetailDto, description: '`task_not_found`, or `best_result_not_found` while no result has been accepted.' })
  async best(@Param('task_id') taskId: string): Promise<BestResultDto> {
    return toBestResultDto(await this.bestResults.best(taskId));
  }

  @Get(':task_id/best/history')
  @ApiOperation({
    summary: "Every change of a task's best, oldest first",
    description: 'Public (charts and audit): each change with the value and submission it replaced; paged.',
  })
  @ApiParam(TASK_ID)
  @ApiOkResponse({ type: [BestResultChangeDto], description: 'Oldest first; empty before the first accepted result.' })
  @ApiNotFoundResponse({ type: ErrorDetailDto, description: '`task_not_found`.' })
  @ApiUnprocessableEntityResponse({ type: ValidationErrorDto, description: 'Query fails validation (limit 1..1000, offset >= 0, unknown parameters).' })
  async history(@Param('task_id') taskId: string, @Query() query: BestResultHistoryQueryDto): Promise<BestResultChangeDto[]> {
    return (await this.bestResults.history(taskId, query)).map(toBestResultChangeDto);
  }
}
