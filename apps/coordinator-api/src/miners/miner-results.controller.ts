import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Public } from '@rcs/auth';
import { ApiValidationFailure, ApiErrors, MinerResultsDto, MinerResultsQueryDto } from '@rcs/contracts';
import { MinerResultsService } from './miner-results.service';

@ApiTags('miners')
@Controller('api/v1/miners')
export class MinerResultsController {
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
  results(@Param('hotkey') hotkey: string, @Query() query: MinerResultsQueryDto): Promise<MinerResultsDto> {
    return this.miners.results(hotkey, query);
  }
}
