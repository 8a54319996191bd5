import { Module } from '@nestjs/common';
import { ClaimsModule } from '../claims/claims.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { TasksModule } from '../tasks/tasks.module';
import { WorkItemsController } from './work-items.controller';
import { WorkItemsRepository } from './work-items.repository';
import { WorkItemsService } from './work-items.service';

@Module({
  imports: [ClaimsModule, RateLimitModule, TasksModule],
  controllers: [WorkItemsController],
  providers: [WorkItemsService, WorkItemsRepository],
  // Planners insert items and submissions complete them, always inside their own transaction.
  exports: [WorkItemsRepository],
})
export class WorkItemsModule {}

export { WorkItemsRepository, type NewWorkItem } from './work-items.repository';
