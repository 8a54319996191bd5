import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module';
import { DecisionsModule } from '../decisions/decisions.module';
import { ExposureModule } from '../exposure/exposure.module';
import { HeldoutModule } from '../heldout/heldout.module';
import { IdeaRewardsModule } from '../idea-rewards/idea-rewards.module';
import { PeerEvaluationModule } from '../peer-evaluation/peer-evaluation.module';
import { SubmissionDetails } from '../submissions/submission-detail';
import { SubmissionsRepositoryModule } from '../submissions/submissions-repository.module';
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
 * Peer evaluations and idea rewards are read for the submission detail each leased job carries.
 */
@Module({
  imports: [EventsModule, DecisionsModule, ExposureModule, HeldoutModule, PeerEvaluationModule, IdeaRewardsModule, SubmissionsRepositoryModule, TasksModule],
  controllers: [ValidatorController, VerificationsController, RescoreController],
  providers: [ValidatorJobsRepository, VerificationsRepository, SubmissionDecider, ValidatorJobsService, VerificationsService, LeaseExpiryJob, SubmissionDetails],
  // The submission detail is answered here (scans) and by SubmissionsModule, which sits above this one.
  exports: [ValidatorJobsRepository, VerificationsRepository, SubmissionDetails],
})
export class ValidatorJobsModule {}

export { ValidatorJobsRepository } from './validator-jobs.repository';
export { VerificationsRepository } from './verifications.repository';
