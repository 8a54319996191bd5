import { EmptyJobData, PoolMaintenanceJob, QueueName } from '@rcs/contracts';
import { onJobOf, type JobSpec } from '@rcs/queue';

export interface AssignmentExpiryOutcome {
  expired: number;
}

/** Queues and jobs the pool runs; every job here needs exactly one handler. */
export type PoolJobs = {
  [QueueName.PoolMaintenance]: {
    [PoolMaintenanceJob.ExpireAssignments]: JobSpec<EmptyJobData, AssignmentExpiryOutcome>;
  };
};

export const POOL_QUEUES = {
  [QueueName.PoolMaintenance]: { jobNames: [PoolMaintenanceJob.ExpireAssignments] },
};

/** `@OnJob` typed by the pool's catalog: the method's data and result must be the job's. */
export const OnPoolJob = onJobOf<PoolJobs>();
