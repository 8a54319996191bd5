import type { ValidatorJobDto } from '../validator-jobs/validator-job.dto';

/**
 * BullMQ queue names, job names and payloads: a wire contract between producers and consumers (ARCHITECTURE
 * "Queues"). Each app's catalog (`JobSpec` per job, in `@rcs/queue`) types its producers and, through
 * `onJobOf<Catalog>()`, its handlers from these payloads.
 */
export enum QueueName {
  Maintenance = 'coordinator.maintenance',
  Rewards = 'coordinator.rewards',
  Planner = 'coordinator.planner',
  Replay = 'runner.replay',
  Weights = 'weights.set',
  Epochs = 'pool.epochs',
  PoolMaintenance = 'pool.maintenance',
}

/** A job without input (repeatable sweeps). */
export type EmptyJobData = Record<string, never>;

export enum MaintenanceJob {
  ExpireClaims = 'expire-claims',
  ExpireLeases = 'expire-leases',
}

export enum RewardsJob {
  RebuildSnapshot = 'rebuild-snapshot',
  /** Repeatable: rebuilds when a recorded change is not in the snapshot, or it is too old (decay). */
  CheckSnapshot = 'check-snapshot',
}

export interface RebuildSnapshotData {
  /** What made the snapshot stale, for logs (e.g. `decision`, `policy_update`, `task_state`). */
  reason: string;
  /** Task whose results changed; null for policy-wide changes. */
  task_id: string | null;
}

export enum PlannerJob {
  Run = 'run',
  RunAgentic = 'run-agentic',
}

/** Return value of a planner job; the route answers it as `PlannerRunResponseDto`. */
export interface PlannerJobResult {
  created: number;
}

/** The runner's queue job that replays one leased validator job (a coordinator resource, `ValidatorJobDto`). */
export enum ReplayJob {
  Replay = 'replay',
}

export interface ReplayJobData {
  /** The leased validator job, as the scan answered it. */
  job: ValidatorJobDto;
}

export enum WeightsJob {
  SetWeights = 'set-weights',
}

export interface SetWeightsData {
  /** Index of the interval this pass belongs to (also its job id). */
  interval: number;
}

export enum EpochJob {
  Rollover = 'rollover',
  /** Repeatable: enqueues the rollover of a window that has ended and retries a pending publication. */
  Check = 'check',
}

export interface RolloverData {
  /** Window number N (job id = N). */
  window: number;
}

export enum PoolMaintenanceJob {
  ExpireAssignments = 'expire-assignments',
}

/** Every job name of each queue (typed by its enum), for the apps' queue settings and handler registries that refuse missing or duplicate handlers. */
export const QUEUE_JOB_NAMES = {
  [QueueName.Maintenance]: Object.values(MaintenanceJob),
  [QueueName.Rewards]: Object.values(RewardsJob),
  [QueueName.Planner]: Object.values(PlannerJob),
  [QueueName.Replay]: Object.values(ReplayJob),
  [QueueName.Weights]: Object.values(WeightsJob),
  [QueueName.Epochs]: Object.values(EpochJob),
  [QueueName.PoolMaintenance]: Object.values(PoolMaintenanceJob),
} satisfies Record<QueueName, string[]>;
