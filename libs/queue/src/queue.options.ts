import type { FactoryProvider, ModuleMetadata } from '@nestjs/common';
import type { BackoffStrategy, DefaultJobOptions } from 'bullmq';

export interface QueueSettings {
  /** Every job name this queue carries; each needs exactly one `@OnJob` handler. */
  jobNames: readonly string[];
  /** Jobs one worker runs at once (default 1). */
  concurrency?: number;
  /** The worker takes no job until `JobWorkers.resume(queue)` (e.g. a standby that must not work yet). */
  startPaused?: boolean;
  /**
   * How long (ms) a running job's lock lasts without renewal (BullMQ default 30 000; renewed every half).
   * A worker that dies keeps its jobs `active` until the lock expires: a shorter lock re-runs them sooner.
   */
  lockDuration?: number;
  /** How often (ms) each worker moves active jobs whose lock has expired back to waiting (BullMQ default 30 000). */
  stalledInterval?: number;
  /** The delay before a retry of a job added with `backoff: { type: 'custom' }` (BullMQ's worker `backoffStrategy`). */
  backoffStrategy?: BackoffStrategy;
  /** Merged over the module defaults (retention of finished jobs). */
  defaultJobOptions?: DefaultJobOptions;
}

export interface QueueModuleOptions {
  /** REDIS_URL, or the cluster form of REDIS_CLUSTER_NODES (`redisConnectionUrl`). */
  redisUrl: string;
  /**
   * Base of every queue's Redis key prefix (default `bull`); each queue's keys go under the hash tag
   * `{<prefix>:<queue>}` (`queueKeyPrefix`). Tests pass a unique one.
   */
  prefix?: string;
  queues: Record<string, QueueSettings>;
}

export interface QueueModuleAsyncOptions {
  imports?: ModuleMetadata['imports'];
  inject?: FactoryProvider['inject'];
  useFactory: (...deps: never[]) => QueueModuleOptions | Promise<QueueModuleOptions>;
}

export const QUEUE_MODULE_OPTIONS = Symbol('QUEUE_MODULE_OPTIONS');

/** Finished jobs stay long enough to answer duplicate adds and waiting callers, then go. */
export const RETENTION: DefaultJobOptions = {
  removeOnComplete: { age: 24 * 3600, count: 1000 },
  removeOnFail: { age: 7 * 24 * 3600, count: 5000 },
};
