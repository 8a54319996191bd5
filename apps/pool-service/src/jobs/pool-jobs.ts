import { EmptyJobData, EpochJob, PoolMaintenanceJob, QueueName, RolloverData } from '@rcs/contracts';
import { OnJob, type JobDataOf, type JobNameOf, type JobResultOf, type JobSpec, type QueueOf } from '@rcs/queue';

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

type Handler<Q extends QueueOf<PoolJobs>, N extends JobNameOf<PoolJobs, Q>> = (data: JobDataOf<PoolJobs, Q, N>) => Promise<JobResultOf<PoolJobs, Q, N>>;

/** `@OnJob` typed by the pool's catalog: the method's data and result must be the job's. */
export function OnPoolJob<Q extends QueueOf<PoolJobs>, N extends JobNameOf<PoolJobs, Q>>(queue: Q, name: N) {
  return (target: object, key: string | symbol, descriptor: TypedPropertyDescriptor<Handler<Q, N>>): void => {
    OnJob({ queue, name })(target, key, descriptor);
  };
}
