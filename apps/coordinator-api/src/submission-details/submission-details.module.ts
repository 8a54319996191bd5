import { Module } from '@nestjs/common';
import { IdeaRewardsModule } from '../idea-rewards/idea-rewards.module';
import { SubmissionDetails } from './submission-details';
import { SubmissionDetailsRepository } from './submission-details.repository';

/**
 * The submission detail (a submission with its verifications, peer evaluations, consensus and idea
 * rewards), read by the submissions routes, the validator scans and the peer consensus route. It reads
 * the tables itself and imports no domain above it, so every one of those can import it.
 */
@Module({
  imports: [IdeaRewardsModule],
  providers: [SubmissionDetails, SubmissionDetailsRepository],
  exports: [SubmissionDetails],
})
export class SubmissionDetailsModule {}

export { SubmissionDetails } from './submission-details';
