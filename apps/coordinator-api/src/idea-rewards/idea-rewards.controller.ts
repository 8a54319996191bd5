import { Controller, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdeaRewardDto, IdeaRewardQueryDto } from '@rcs/contracts';
import { toIdeaRewardDto } from './idea-reward.mapper';
import { IdeaRewardsService } from './idea-rewards.service';
import { PublicListRoute } from '../common/list-route';

@ApiTags('idea-rewards')
@Controller('api/v1/idea-rewards')
export class IdeaRewardsController {
  constructor(private readonly ideaRewards: IdeaRewardsService) {}

  @PublicListRoute(undefined, IdeaRewardDto, 'Query fails validation (limit 1..1000, offset >= 0, unknown parameters).')
  @ApiOperation({
    summary: 'List idea rewards, newest first',
    description:
      'Public. A reward is recorded when an accepted centerless submission implementing another miner\'s idea becomes the new best. ' +
      '`submission_id` matches the improved submission or the idea submission; filters combine with AND; paged.',
  })
  async list(@Query() query: IdeaRewardQueryDto): Promise<IdeaRewardDto[]> {
    return (await this.ideaRewards.list(query)).map(toIdeaRewardDto);
  }
}
