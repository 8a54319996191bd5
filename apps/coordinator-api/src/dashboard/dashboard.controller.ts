import { Public } from '@rcs/auth';
import { Controller, Get, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, DashboardDto } from '@rcs/contracts';
import { DashboardService } from './dashboard.service';
import { JsonAnswer, jsonAnswer, sendJson } from '../common/json-answer';
import { ReadCoalescer } from '../common/read-coalescer';

@ApiTags('dashboard')
@Controller('api/v1/dashboard')
export class DashboardController {
  /** Concurrent dashboard reads share one snapshot read (never one older than the request). */
  private readonly reads = new ReadCoalescer<JsonAnswer>();

  constructor(private readonly dashboardService: DashboardService) {}

  @Get()
  @Public()
  @ApiErrors()
  @ApiOperation({
    summary: 'Competition dashboard',
    description:
      'Public. Tasks (newest first, capped) with their best result, submissions per status, active claims and open work items; ' +
      'the validator job backlog; the latest decisions. Read in one snapshot; no validator-private data.',
  })
  @ApiOkResponse({ type: DashboardDto, description: 'The dashboard as of `generated_at`.' })
  async dashboard(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const answer = await this.reads.read('dashboard', async () => jsonAnswer(await this.dashboardService.dashboard()));
    return sendJson(request, reply, answer);
  }
}
