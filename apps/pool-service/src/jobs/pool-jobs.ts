import { EmptyJobData, EpochJob, PoolMaintenanceJob, QueueName, RolloverData } from '@rcs/contracts';
import { onJobOf, type JobSpec } from '@rcs/queue';

export interface AssignmentExpiryOutcome {
  expired: number;
}

export interface EpochCheckOutcome {
  /** The window whose rollover was enqueued, if any. */
  enqueued: number | null;
}

export interface RolloverJobResult {
  epoch: number;
  rollover: 'stored' | 'existed' | 'superseded' | 'no_snapshot';
  publication: 'published' | 'already_published' | 'publication_off' | 'superseded' | 'failed' | null;
}

/** Queues and jobs the pool runs; every job here needs exactly one handler. */
export type PoolJobs = {
  [QueueName.PoolMaintenance]: {
    [PoolMaintenanceJob.ExpireAssignments]: JobSpec<EmptyJobData, AssignmentExpiryOutcome>;
  };
  [QueueName.Epochs]: {
    [EpochJob.Rollover]: JobSpec<RolloverData, RolloverJobResult>;
    [EpochJob.Check]: JobSpec<EmptyJobData, EpochCheckOutcome>;
  };
};

export const POOL_QUEUES = {
  [QueueName.PoolMaintenance]: { jobNames: [PoolMaintenanceJob.ExpireAssignments] },
  [QueueName.Epochs]: { jobNames: [EpochJob.Rollover, EpochJob.Check] },
};

/** `@OnJob` typed by the pool's catalog: the method's data and result must be the job's. */
export const OnPoolJob = onJobOf<PoolJobs>();
