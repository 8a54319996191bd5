import { Module } from '@nestjs/common';
import { IdeaRewardsModule } from '../idea-rewards/idea-rewards.module';
import { SubmissionsModule } from '../submissions/submissions.module';
import { TasksModule } from '../tasks/tasks.module';
import { BestResultsController } from './best-results.controller';
import { BestResultsRepository } from './best-results.repository';
import { BestResultsService } from './best-results.service';

@Module({
  // Idea rewards are written through that domain's repository, in the decision's transaction.
  imports: [IdeaRewardsModule, SubmissionsModule, TasksModule],
  controllers: [BestResultsController],
  providers: [BestResultsService, BestResultsRepository],
  exports: [BestResultsService],
})
export class BestResultsModule {}

export { BestResultsService, type BestResultConsideration } from './best-results.service';
export { toBestResultDto, toBestResultChangeDto } from './best-result.mapper';
