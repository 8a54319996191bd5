import { Public } from '@rcs/auth';
import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiValidationFailure, ApiErrors, BestResultChangeDto, BestResultDto, BestResultHistoryQueryDto, ErrorCode } from '@rcs/contracts';
import { toBestResultChangeDto, toBestResultDto } from './best-result.mapper';
import { BestResultsService } from './best-results.service';
import { JsonAnswer, jsonAnswer, sendJson } from '../common/json-answer';
import { ReadCoalescer } from '../common/read-coalescer';

const TASK_ID = { name: 'task_id', description: 'Task id (uuid); anything else is 404 `task_not_found`.' };

/** Shares the tasks prefix; holds only the best-result routes of a task. */
@ApiTags('best-results')
@Controller('api/v1/tasks')
export class BestResultsController {
  /** Concurrent reads of one task's best share a query and its serialised answer. */
  private readonly reads = new ReadCoalescer<JsonAnswer>();

  constructor(private readonly bestResults: BestResultsService) {}

  @Get(':task_id/best')
  @Public()
  @ApiOperation({
    summary: "A task's current best result",
    description: 'Public. The best accepted result by the task\'s ranking rule (direction, metric_resolution, secondary metric, ranking_mode).',
  })
  @ApiParam(TASK_ID)
  @ApiOkResponse({ type: BestResultDto, description: 'The current best.' })
  @ApiErrors(ErrorCode.TaskNotFound, ErrorCode.BestResultNotFound)
  async best(@Param('task_id') taskId: string, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const answer = await this.reads.read(taskId, async () => jsonAnswer(toBestResultDto(await this.bestResults.best(taskId))));
    return sendJson(request, reply, answer);
  }

  @Get(':task_id/best/history')
  @Public()
  @ApiOperation({
    summary: "Every change of a task's best, oldest first",
    description: 'Public (charts and audit): each change with the value and submission it replaced; paged.',
  })
  @ApiParam(TASK_ID)
  @ApiOkResponse({ type: [BestResultChangeDto], description: 'Oldest first; empty before the first accepted result.' })
  @ApiErrors(ErrorCode.TaskNotFound)
  @ApiValidationFailure('Query fails validation (limit 1..1000, offset >= 0, unknown parameters).')
  async history(@Param('task_id') taskId: string, @Query() query: BestResultHistoryQueryDto): Promise<BestResultChangeDto[]> {
    return (await this.bestResults.history(taskId, query)).map(toBestResultChangeDto);
  }
}
