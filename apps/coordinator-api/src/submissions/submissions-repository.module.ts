import { Module } from '@nestjs/common';
import { SubmissionsRepository } from './submissions.repository';

/**
 * The submissions table on its own: decisions, best results, peer evaluation and validator jobs read
 * submissions, and SubmissionsModule (which stores them) sits above those modules, so importing it
 * there would make a cycle.
 */
@Module({
  providers: [SubmissionsRepository],
  exports: [SubmissionsRepository],
})
export class SubmissionsRepositoryModule {}

export { SubmissionsRepository } from './submissions.repository';
