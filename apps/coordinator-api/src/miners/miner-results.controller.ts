import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Public } from '@rcs/auth';
import { ApiValidationFailure, ApiErrors, MinerResultsDto, MinerResultsQueryDto } from '@rcs/contracts';
import { MinerResultsService } from './miner-results.service';
import { JsonAnswer, jsonAnswer, sendJson } from '../common/json-answer';
import { ReadCoalescer } from '../common/read-coalescer';

@ApiTags('miners')
@Controller('api/v1/miners')
export class MinerResultsController {
  /** Concurrent reads of one page of one miner's results share a query and its serialised answer. */
  private readonly reads = new ReadCoalescer<JsonAnswer>();

  constructor(private readonly miners: MinerResultsService) {}

  @Get(':hotkey/results')
  @Public()
  @ApiErrors()
  @ApiOperation({
    summary: "A miner's accepted results per competition",
    description:
      'Public (the miner page of the web UI). Each competition with an accepted submission of the hotkey: how many, its best ' +
      'verified value, its latest decision, and whether it holds the current best; the latest decided first, paged. Only what ' +
      'the dashboard and the best history publish: no patch, replay log or validator note. Page by keyset with ' +
      '`after=<latest_decided_at>,<task_id>` of the last competition of the previous page (read from an index that stops at the page).',
  })
  @ApiParam({ name: 'hotkey', description: 'The miner hotkey, SS58 with any network prefix.' })
  @ApiOkResponse({ type: MinerResultsDto, description: 'The canonical hotkey and its competitions (empty for a hotkey with no accepted result).' })
  @ApiValidationFailure('`ss58_invalid` for a hotkey that is no SS58 address; limit 1..1000, offset >= 0, a malformed `after` cursor, unknown parameters.')
  async results(
    @Param('hotkey') hotkey: string,
    @Query() query: MinerResultsQueryDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const key = JSON.stringify([hotkey, query.limit, query.offset, query.after ?? null]);
    const answer = await this.reads.read(key, async () => jsonAnswer(await this.miners.results(hotkey, query)));
    return sendJson(request, reply, answer);
  }
}
