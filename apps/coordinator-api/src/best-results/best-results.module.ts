import { Module } from '@nestjs/common';
import { IdeaRewardsModule } from '../idea-rewards/idea-rewards.module';
import { BestResultsController } from './best-results.controller';
import { BestResultsService } from './best-results.service';

@Module({
  // Idea rewards are written through that domain's repository, in the decision's transaction.
  imports: [IdeaRewardsModule],
  controllers: [BestResultsController],
  providers: [BestResultsService],
  exports: [BestResultsService],
})
export class BestResultsModule {}

export { BestResultsService, type BestResultConsideration } from './best-results.service';
export { toBestResultDto, toBestResultChangeDto } from './best-result.mapper';
