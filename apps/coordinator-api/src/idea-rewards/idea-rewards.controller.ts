import { Public } from '@rcs/auth';
import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { ApiErrors, IdeaRewardDto, IdeaRewardQueryDto, ValidationErrorDto } from '@rcs/contracts';
import { toIdeaRewardDto } from './idea-reward.mapper';
import { IdeaRewardsService } from './idea-rewards.service';

@ApiTags('idea-rewards')
@Controller('api/v1/idea-rewards')
export class IdeaRewardsController {
  constructor(private readonly ideaRewards: IdeaRewardsService) {}

  @Get()
  @Public()
  @ApiErrors()
  @ApiOperation({
    summary: 'List idea rewards, newest first',
    description:
      'Public. A reward is recorded when an accepted centerless submission implementing another miner\'s idea becomes the new best. ' +
      '`submission_id` matches the improved submission or the idea submission; filters combine with AND; paged.',
  })
  @ApiOkResponse({ type: [IdeaRewardDto], description: 'Newest first (created_at, then id).' })
  @ApiUnprocessableEntityResponse({ type: ValidationErrorDto, description: 'Query fails validation (limit 1..1000, offset >= 0, unknown parameters).' })
  async list(@Query() query: IdeaRewardQueryDto): Promise<IdeaRewardDto[]> {
    return (await this.ideaRewards.list(query)).map(toIdeaRewardDto);
  }
}
