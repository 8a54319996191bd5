import { Module } from '@nestjs/common';
import { BestResultsModule } from '../best-results/best-results.module';
import { EventsModule } from '../events/events.module';
import { ExposureModule } from '../exposure/exposure.module';
import { SubmissionsModule } from '../submissions/submissions.module';
import { TasksModule } from '../tasks/tasks.module';
import { DecisionService } from './decision.service';

/** The decision protocol (DECISIONS.md §6), written once for every way a submission is decided. */
@Module({
  imports: [BestResultsModule, EventsModule, ExposureModule, SubmissionsModule, TasksModule],
  providers: [DecisionService],
  exports: [DecisionService],
})
export class DecisionsModule {}

export { DecisionService, DecisionTransaction, type RecordedDecision, type SubmissionDecision, type Verdict } from './decision.service';
