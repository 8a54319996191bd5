import { Module } from '@nestjs/common';
import { WorkItemsModule } from '../work-items/work-items.module';
import { AgenticPlanner } from './agentic-planner.service';
import { DeterministicPlanner } from './deterministic-planner.service';
import { PlannerLlmClient } from './planner-llm.client';
import { PlannerController } from './planner.controller';
import { PlannerJobs } from './planner.job';
import { PlannerRepository } from './planner.repository';
import { PlannerService } from './planner.service';

@Module({
  imports: [WorkItemsModule],
  controllers: [PlannerController],
  providers: [PlannerService, PlannerRepository, PlannerJobs, DeterministicPlanner, AgenticPlanner, PlannerLlmClient],
})
export class PlannerModule {}
