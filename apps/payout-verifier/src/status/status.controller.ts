import { Controller, Get, Inject, Param, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiError, ApiErrors, ErrorCode } from '@rcs/contracts';
import { readinessReply } from '@rcs/http';
import { StatusService } from './status.service';

@ApiTags('verifier')
@Controller()
export class StatusController {
  constructor(@Inject(StatusService) private readonly status: StatusService) {}

  @Get('status')
  @ApiOperation({ summary: 'The verifier', description: 'Its key, its verdicts by result, its challenges, its last pass and the recent verdicts (DECISIONS §16).' })
  @ApiOkResponse({ description: 'The verifier’s state.' })
  getStatus(): Promise<Record<string, unknown>> {
    return this.status.status();
  }

  @Get('readyz')
  @ApiOkResponse({ description: 'The database and the chain answer.' })
  @ApiServiceUnavailableResponse({ description: 'The database or the chain does not answer.' })
  async readyz(@Res({ passthrough: true }) reply: FastifyReply): Promise<unknown> {
    return readinessReply(reply, await this.status.checks());
  }

  @Get('evidence/:epoch')
  @ApiOperation({
    summary: 'The evidence of a challenged epoch',
    description: 'Byte for byte what `challenge_epoch` carries the BLAKE2b-256 of: the failed check, expected vs published, and the inputs’ hashes.',
  })
  @ApiOkResponse({ description: 'The evidence document.' })
  @ApiErrors(ErrorCode.NotFound)
  async evidence(@Param('epoch') epoch: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const evidence = /^[0-9]{1,10}$/.test(epoch) ? await this.status.evidence(Number(epoch)) : null;
    if (evidence === null) throw ApiError.notFound(ErrorCode.NotFound, `No evidence for epoch ${epoch}: it was not judged a mismatch.`, { epoch });
    void reply.type('application/json; charset=utf-8').header('cache-control', 'public, max-age=31536000, immutable');
    return evidence;
  }
}
