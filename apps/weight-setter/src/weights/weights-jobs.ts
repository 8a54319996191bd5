import { QueueName, WeightsJob, type SetWeightsData, type WeightsPassDto } from '@rcs/contracts';
import type { JobSpec } from '@rcs/queue';

/** The setter's one queue: a pass per interval, job id `interval-<n>`. */
export type WeightSetterJobs = {
  [QueueName.Weights]: {
    [WeightsJob.SetWeights]: JobSpec<SetWeightsData, WeightsPassDto>;
  };
};

export const intervalJobId = (interval: number): string => `interval-${interval}`;
