import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module';
import { IdeaRewardsModule } from '../idea-rewards/idea-rewards.module';
import { PeerEvaluationModule } from '../peer-evaluation/peer-evaluation.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { ClaimsModule } from '../claims/claims.module';
import { TasksModule } from '../tasks/tasks.module';
import { ValidatorJobsModule } from '../validator-jobs/validator-jobs.module';
import { SubmissionsController } from './submissions.controller';
import { TaskIdeasController } from './task-ideas.controller';
import { SubmissionsRepositoryModule } from './submissions-repository.module';
import { SubmissionsService } from './submissions.service';

@Module({
  imports: [EventsModule, RateLimitModule, ValidatorJobsModule, PeerEvaluationModule, IdeaRewardsModule, ClaimsModule, TasksModule, SubmissionsRepositoryModule],
  controllers: [SubmissionsController, TaskIdeasController],
  providers: [SubmissionsService],
  exports: [SubmissionsService],
})
export class SubmissionsModule {}
