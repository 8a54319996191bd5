import { EmptyJobData, EpochJob, PoolMaintenanceJob, QUEUE_JOB_NAMES, QueueName, RolloverData } from '@rcs/contracts';
import { onJobOf, repeatOf, type CatalogQueues, type JobSpec } from '@rcs/queue';
import type { PoolServiceConfig } from '../config/config';

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

/**
 * A rollover whose process died stays `active` until its lock expires and a worker's stall check
 * (each second) puts it back to waiting: at most ~7 s after the kill, not BullMQ's ~60 s. The lock is
 * renewed every 2.5 s; an event loop blocked longer lets another worker run the window too, which the
 * rollover's single transaction makes harmless (the second run finds the epoch stored).
 */
export const EPOCH_JOB_LOCK_MS = 5_000;
export const EPOCH_STALL_CHECK_MS = 1_000;

/** The wait before a rollover's next try at the coordinator's snapshot: 1 s, 2 s, 4 s, … at most 30 s. */
export function rolloverBackoffMs(attemptsMade: number): number {
  return Math.min(30_000, 500 * 2 ** attemptsMade);
}

export const POOL_QUEUES: CatalogQueues<PoolJobs> = {
  [QueueName.PoolMaintenance]: { jobNames: QUEUE_JOB_NAMES[QueueName.PoolMaintenance] },
  [QueueName.Epochs]: {
    jobNames: QUEUE_JOB_NAMES[QueueName.Epochs],
    lockDuration: EPOCH_JOB_LOCK_MS,
    stalledInterval: EPOCH_STALL_CHECK_MS,
    backoffStrategy: rolloverBackoffMs,
  },
};

/** `@OnJob` typed by the pool's catalog: the method's data and result must be the job's. */
export const OnPoolJob = onJobOf<PoolJobs>();

/** `@Repeat` typed by the pool's catalog and config: a schedule the `ScheduleKeeper` keeps from boot. */
export const RepeatPoolJob = repeatOf<PoolJobs, PoolServiceConfig>();
