import { Module } from '@nestjs/common';
import { IdeaRewardsModule } from '../idea-rewards/idea-rewards.module';
import { PeerEvaluationModule } from '../peer-evaluation/peer-evaluation.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { ValidatorJobsModule } from '../validator-jobs/validator-jobs.module';
import { SubmissionsController } from './submissions.controller';
import { SubmissionsRepository } from './submissions.repository';
import { SubmissionsService } from './submissions.service';

@Module({
  imports: [RateLimitModule, ValidatorJobsModule, PeerEvaluationModule, IdeaRewardsModule],
  controllers: [SubmissionsController],
  providers: [SubmissionsService, SubmissionsRepository],
  exports: [SubmissionsService],
})
export class SubmissionsModule {}
