import { EmptyJobData, MaintenanceJob, PlannerJob, PlannerJobResult, QUEUE_JOB_NAMES, QueueName, RebuildSnapshotData, RewardsJob } from '@rcs/contracts';
import { onJobOf, repeatOf, type CatalogQueues, type JobSpec } from '@rcs/queue';
import type { CoordinatorConfig } from '../config/config';
import type { AgenticPlanOutcome, ExpiryOutcome, LeaseExpiryOutcome, RebuildOutcome, SnapshotCheckOutcome } from './job-results';

/** Queues and jobs this service runs; every job here needs exactly one `@OnJob` handler. */
export type CoordinatorJobs = {
  [QueueName.Maintenance]: {
    [MaintenanceJob.ExpireClaims]: JobSpec<EmptyJobData, ExpiryOutcome>;
    [MaintenanceJob.ExpireLeases]: JobSpec<EmptyJobData, LeaseExpiryOutcome>;
  };
  [QueueName.Planner]: {
    [PlannerJob.Run]: JobSpec<EmptyJobData, PlannerJobResult>;
    // An LLM failure is an answer the route reports (502), not a failed job.
    [PlannerJob.RunAgentic]: JobSpec<EmptyJobData, AgenticPlanOutcome>;
  };
  [QueueName.Rewards]: {
    [RewardsJob.RebuildSnapshot]: JobSpec<RebuildSnapshotData, RebuildOutcome>;
    [RewardsJob.CheckSnapshot]: JobSpec<EmptyJobData, SnapshotCheckOutcome>;
  };
};

export const COORDINATOR_QUEUES: CatalogQueues<CoordinatorJobs> = {
  [QueueName.Maintenance]: { jobNames: QUEUE_JOB_NAMES[QueueName.Maintenance] },
  // One planner run at a time (DECISIONS.md §4); the planner also sets a global concurrency of 1 across replicas.
  [QueueName.Planner]: { jobNames: QUEUE_JOB_NAMES[QueueName.Planner], concurrency: 1 },
  // Rebuilds never overlap: RewardsRebuildService deduplicates them queue-wide.
  [QueueName.Rewards]: { jobNames: QUEUE_JOB_NAMES[QueueName.Rewards] },
};

/** `@OnJob` typed by `CoordinatorJobs`: a handler's data and result must be its job's. */
export const OnCoordinatorJob = onJobOf<CoordinatorJobs>();

/** `@Repeat` typed by `CoordinatorJobs` and `CoordinatorConfig`: a schedule the `ScheduleKeeper` keeps from boot. */
export const RepeatCoordinatorJob = repeatOf<CoordinatorJobs, CoordinatorConfig>();
