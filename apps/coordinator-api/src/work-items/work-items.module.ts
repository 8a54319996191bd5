import { Module } from '@nestjs/common';
import { ClaimsModule } from '../claims/claims.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { WorkItemsController } from './work-items.controller';
import { WorkItemsService } from './work-items.service';

@Module({
  imports: [ClaimsModule, RateLimitModule],
  controllers: [WorkItemsController],
  providers: [WorkItemsService],
})
export class WorkItemsModule {}

/** What other domains use of work items: always inside their own transaction, through its manager. */
export { completeClaimedWorkItem, insertWorkItems, type NewWorkItem } from './work-items.repository';
