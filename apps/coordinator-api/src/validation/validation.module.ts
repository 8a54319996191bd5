import { Module } from '@nestjs/common';
import { DecisionsModule } from '../decisions/decisions.module';
import { LeaseExpiryJob } from './lease-expiry.job';
import { SubmissionDecider } from './submission-decider';
import { ValidatorController } from './validator.controller';
import { ValidatorJobsRepository } from './validator-jobs.repository';
import { ValidatorJobsService } from './validator-jobs.service';
import { VerificationsController } from './verifications.controller';
import { VerificationsService } from './verifications.service';

/**
 * Validator worklists and results, manual verify, verifications and lease expiry (DECISIONS.md §6).
 * Readers for other modules are plain functions: `verificationsForSubmission` in verifications.readers.
 */
@Module({
  imports: [DecisionsModule],
  controllers: [ValidatorController, VerificationsController],
  providers: [ValidatorJobsRepository, SubmissionDecider, ValidatorJobsService, VerificationsService, LeaseExpiryJob],
  exports: [ValidatorJobsRepository],
})
export class ValidationModule {}

export { ValidatorJobsRepository } from './validator-jobs.repository';
