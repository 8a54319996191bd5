import { Module } from '@nestjs/common';
import { ValidatorJobsRepository } from './validator-jobs.repository';

/** Validator jobs; the submission that creates one passes its transaction's manager. */
@Module({
  providers: [ValidatorJobsRepository],
  exports: [ValidatorJobsRepository],
})
export class ValidationModule {}
