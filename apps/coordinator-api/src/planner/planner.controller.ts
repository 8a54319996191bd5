import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Admin } from '@rcs/auth';
import { ApiErrors, ErrorCode, PlannerRunResponseDto } from '@rcs/contracts';
import { PlannerService } from './planner.service';


@ApiTags('planner')
@Controller('api/v1/planner')
export class PlannerController {
  constructor(private readonly planner: PlannerService) {}

  @Post('run')
  @HttpCode(200)
  @Admin()
  @ApiOperation({
    summary: 'Run the deterministic planner',
    description:
      'Per live task keeps one open "improve the current best" item and, on centerless tasks, one "implement the idea of ' +
      'submission X" item per available idea. Never duplicates an item. Runs as a queued job, one at a time.',
  })
  @ApiOkResponse({ type: PlannerRunResponseDto, description: 'How many work items the run created.' })
  @ApiErrors(ErrorCode.InvalidAdminToken, ErrorCode.AdminUnconfigured, [ErrorCode.PlannerTimeout, 'the run did not finish while the route waited (PLANNER_RUN_TIMEOUT_SECONDS)'])
  run(): Promise<PlannerRunResponseDto> {
    return this.planner.run();
  }

  @Post('run-agentic')
  @HttpCode(200)
  @Admin()
  @ApiOperation({
    summary: 'Run the agentic (LLM) planner',
    description:
      'Per live task an OpenAI-compatible chat-completions endpoint proposes work items as JSON; they are validated, ' +
      'de-duplicated by title and stored with source agentic_planner. Any unusable answer stores nothing.',
  })
  @ApiOkResponse({ type: PlannerRunResponseDto, description: 'How many work items the run created.' })
  @ApiErrors(ErrorCode.InvalidAdminToken, [ErrorCode.PlannerLlmFailed, 'HTTP error, timeout, or an answer that is not the expected JSON'], ErrorCode.AgenticPlannerUnconfigured, ErrorCode.AdminUnconfigured, [ErrorCode.PlannerTimeout, 'the run did not finish while the route waited (PLANNER_RUN_TIMEOUT_SECONDS)'])
  runAgentic(): Promise<PlannerRunResponseDto> {
    return this.planner.runAgentic();
  }
}
