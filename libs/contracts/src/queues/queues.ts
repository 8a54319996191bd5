import type { ValidatorJobDto } from '../validation/validator-job.dto';

/** BullMQ queue names: a wire contract between producers and consumers (ARCHITECTURE "Queues"). */
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

export type MaintenanceJobPayload =
  | { name: MaintenanceJob.ExpireClaims; data: EmptyJobData }
  | { name: MaintenanceJob.ExpireLeases; data: EmptyJobData };

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

export type RewardsJobPayload =
  | { name: RewardsJob.RebuildSnapshot; data: RebuildSnapshotData }
  | { name: RewardsJob.CheckSnapshot; data: EmptyJobData };

export enum PlannerJob {
  Run = 'run',
  RunAgentic = 'run-agentic',
}

export type PlannerJobPayload = { name: PlannerJob.Run; data: EmptyJobData } | { name: PlannerJob.RunAgentic; data: EmptyJobData };

/** Return value of a planner job; the route answers it as `PlannerRunResponseDto`. */
export interface PlannerJobResult {
  created: number;
}

export enum ReplayJob {
  Replay = 'replay',
}

export interface ReplayJobData {
  /** The leased coordinator job, as the scan answered it. */
  job: ValidatorJobDto;
}

export type ReplayJobPayload = { name: ReplayJob.Replay; data: ReplayJobData };

export enum WeightsJob {
  SetWeights = 'set-weights',
}

export interface SetWeightsData {
  /** Index of the interval this pass belongs to (also its job id). */
  interval: number;
}

export type WeightsJobPayload = { name: WeightsJob.SetWeights; data: SetWeightsData };

export enum EpochJob {
  Rollover = 'rollover',
  /** Repeatable: enqueues the rollover of a window that has ended and retries a pending publication. */
  Check = 'check',
}

export interface RolloverData {
  /** Window number N (job id = N). */
  window: number;
}

export type EpochJobPayload = { name: EpochJob.Rollover; data: RolloverData } | { name: EpochJob.Check; data: EmptyJobData };

export enum PoolMaintenanceJob {
  ExpireAssignments = 'expire-assignments',
}

export type PoolMaintenanceJobPayload = { name: PoolMaintenanceJob.ExpireAssignments; data: EmptyJobData };

/** The `{name, data}` union of each queue. */
export interface QueueJobMap {
  [QueueName.Maintenance]: MaintenanceJobPayload;
  [QueueName.Rewards]: RewardsJobPayload;
  [QueueName.Planner]: PlannerJobPayload;
  [QueueName.Replay]: ReplayJobPayload;
  [QueueName.Weights]: WeightsJobPayload;
  [QueueName.Epochs]: EpochJobPayload;
  [QueueName.PoolMaintenance]: PoolMaintenanceJobPayload;
}

export type QueueJob<Q extends QueueName> = QueueJobMap[Q];

/** Every job name of each queue, for handler registries that refuse missing or duplicate handlers. */
export const QUEUE_JOB_NAMES: Record<QueueName, string[]> = {
  [QueueName.Maintenance]: Object.values(MaintenanceJob),
  [QueueName.Rewards]: Object.values(RewardsJob),
  [QueueName.Planner]: Object.values(PlannerJob),
  [QueueName.Replay]: Object.values(ReplayJob),
  [QueueName.Weights]: Object.values(WeightsJob),
  [QueueName.Epochs]: Object.values(EpochJob),
  [QueueName.PoolMaintenance]: Object.values(PoolMaintenanceJob),
};
