import { Controller, HttpCode, Post } from '@nestjs/common';
import {
  ApiBadGatewayResponse,
  ApiGatewayTimeoutResponse,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { Admin } from '@rcs/auth';
import { ErrorDetailDto, PlannerRunResponseDto } from '@rcs/contracts';
import { PlannerService } from './planner.service';

const UNAUTHORIZED = { type: ErrorDetailDto, description: '`invalid_admin_token`.' };
const TIMEOUT = { type: ErrorDetailDto, description: '`planner_timeout`: the run did not finish while the route waited (PLANNER_RUN_TIMEOUT_SECONDS).' };

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
  @ApiUnauthorizedResponse(UNAUTHORIZED)
  @ApiServiceUnavailableResponse({ type: ErrorDetailDto, description: '`admin_unconfigured`.' })
  @ApiGatewayTimeoutResponse(TIMEOUT)
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
  @ApiUnauthorizedResponse(UNAUTHORIZED)
  @ApiBadGatewayResponse({ type: ErrorDetailDto, description: '`planner_llm_failed`: HTTP error, timeout, or an answer that is not the expected JSON.' })
  @ApiServiceUnavailableResponse({ type: ErrorDetailDto, description: '`agentic_planner_unconfigured` or `admin_unconfigured`.' })
  @ApiGatewayTimeoutResponse(TIMEOUT)
  runAgentic(): Promise<PlannerRunResponseDto> {
    return this.planner.runAgentic();
  }
}
