import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module';
import { DecisionsModule } from '../decisions/decisions.module';
import { ExposureModule } from '../exposure/exposure.module';
import { HeldoutModule } from '../heldout/heldout.module';
import { SubmissionDetailsModule } from '../submission-details/submission-details.module';
import { SubmissionsModule } from '../submissions/submissions.module';
import { TasksModule } from '../tasks/tasks.module';
import { LeaseExpiryJob } from './lease-expiry.job';
import { RescoreController } from './rescore.controller';
import { SubmissionDecider } from './submission-decider';
import { ValidatorController } from './validator.controller';
import { ValidatorJobsRepository } from './validator-jobs.repository';
import { ValidatorJobsService } from './validator-jobs.service';
import { VerificationsController } from './verifications.controller';
import { VerificationsRepository } from './verifications.repository';
import { VerificationsService } from './verifications.service';

/**
 * Validator worklists and results, manual verify, verifications and lease expiry (DECISIONS.md §6).
 * Each leased job carries the submission detail, read through the submission-details read model.
 */
@Module({
  imports: [EventsModule, DecisionsModule, ExposureModule, HeldoutModule, SubmissionDetailsModule, SubmissionsModule, TasksModule],
  controllers: [ValidatorController, VerificationsController, RescoreController],
  providers: [ValidatorJobsRepository, VerificationsRepository, SubmissionDecider, ValidatorJobsService, VerificationsService, LeaseExpiryJob],
})
export class ValidatorJobsModule {}

export { ValidatorJobsRepository } from './validator-jobs.repository';
export { VerificationsRepository } from './verifications.repository';
