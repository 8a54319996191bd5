import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { ClaimsModule } from '../claims/claims.module';
import { TasksModule } from '../tasks/tasks.module';
import { SubmissionDetailsModule } from '../submission-details/submission-details.module';
import { SubmissionsController } from './submissions.controller';
import { SubmissionsRepository } from './submissions.repository';
import { TaskIdeasController } from './task-ideas.controller';
import { SubmissionsService } from './submissions.service';

/**
 * Submissions: the routes, the submission path and the submissions table. Decisions, best results, peer
 * evaluation and validator jobs read the table through SubmissionsRepository; the detail is the read model's.
 */
@Module({
  imports: [EventsModule, RateLimitModule, SubmissionDetailsModule, ClaimsModule, TasksModule],
  controllers: [SubmissionsController, TaskIdeasController],
  providers: [SubmissionsService, SubmissionsRepository],
  exports: [SubmissionsService, SubmissionsRepository],
})
export class SubmissionsModule {}

export { SubmissionsRepository } from './submissions.repository';
