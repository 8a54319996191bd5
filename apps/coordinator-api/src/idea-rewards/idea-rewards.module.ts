import { Module } from '@nestjs/common';
import { IdeaRewardsController } from './idea-rewards.controller';
import { IdeaRewardsService } from './idea-rewards.service';

@Module({
  controllers: [IdeaRewardsController],
  providers: [IdeaRewardsService],
})
export class IdeaRewardsModule {}

export { ideaRewardsForSubmission, insertIdeaReward } from './idea-rewards.repository';
export { toIdeaRewardDto } from './idea-reward.mapper';
