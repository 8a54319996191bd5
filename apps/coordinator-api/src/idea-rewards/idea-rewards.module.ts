import { Module } from '@nestjs/common';
import { IdeaRewardsController } from './idea-rewards.controller';
import { IdeaRewardsRepository } from './idea-rewards.repository';
import { IdeaRewardsService } from './idea-rewards.service';

@Module({
  controllers: [IdeaRewardsController],
  providers: [IdeaRewardsService, IdeaRewardsRepository],
  // Best results write rewards through it; the submission detail reads them.
  exports: [IdeaRewardsRepository],
})
export class IdeaRewardsModule {}

export { IdeaRewardsRepository } from './idea-rewards.repository';
export { toIdeaRewardDto } from './idea-reward.mapper';
