import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { EmptyJobData, PlannerJob, PlannerJobResult, QueueName } from '@rcs/contracts';
import { JobQueue } from '@rcs/queue';
import { CoordinatorJobs, OnCoordinatorJob } from '../jobs/coordinator-jobs';
import type { AgenticPlanOutcome } from '../jobs/job-results';
import { AgenticPlanner } from './agentic-planner.service';
import { DeterministicPlanner } from './deterministic-planner.service';

/** Planner runs as BullMQ jobs, one at a time across every replica (DECISIONS.md §4). */
@Injectable()
export class PlannerJobs implements OnApplicationBootstrap {
  private readonly logger = new Logger(PlannerJobs.name);

  constructor(
    private readonly deterministic: DeterministicPlanner,
    private readonly agentic: AgenticPlanner,
    private readonly jobs: JobQueue<CoordinatorJobs>,
  ) {}

  // Worker concurrency 1 serialises runs within a replica; the queue-wide limit serialises replicas.
  // Not awaited, like every boot-time Redis write: the app boots without Redis and reports it in /readyz.
  onApplicationBootstrap(): void {
    this.jobs
      .queue(QueueName.Planner)
      .setGlobalConcurrency(1)
      .catch((error: Error) => this.logger.error(`Could not limit planner runs to one at a time: ${error.message}`));
  }

  @OnCoordinatorJob(QueueName.Planner, PlannerJob.Run)
  async run(_data: EmptyJobData): Promise<PlannerJobResult> {
    return { created: await this.deterministic.plan() };
  }

  @OnCoordinatorJob(QueueName.Planner, PlannerJob.RunAgentic)
  runAgentic(_data: EmptyJobData): Promise<AgenticPlanOutcome> {
    return this.agentic.plan();
  }
}
