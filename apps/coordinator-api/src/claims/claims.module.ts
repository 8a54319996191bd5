import { Module } from '@nestjs/common';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { TasksModule } from '../tasks/tasks.module';
import { ClaimExpiryJob } from './claim-expiry.job';
import { ClaimTasks } from './claim-tasks';
import { ClaimsController } from './claims.controller';
import { ClaimsRepository } from './claims.repository';
import { ClaimsService } from './claims.service';

@Module({
  imports: [RateLimitModule, TasksModule],
  controllers: [ClaimsController],
  providers: [ClaimsService, ClaimsRepository, ClaimExpiryJob, { provide: ClaimTasks, useFactory: () => new ClaimTasks() }],
  // Work items open claims through the service; submissions expire and submit claims inside their own transaction.
  exports: [ClaimsService, ClaimsRepository, ClaimTasks],
})
export class ClaimsModule {}

export { ClaimsRepository, type SubmittedClaimTask } from './claims.repository';
export { ClaimTasks } from './claim-tasks';
export { claimNotFound } from './claim-errors';
