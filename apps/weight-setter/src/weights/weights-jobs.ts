import { QueueName, WeightsJob, type SetWeightsData, type WeightsPassDto } from '@rcs/contracts';
import { onJobOf, type JobSpec } from '@rcs/queue';

/** The setter's one queue: a pass per interval, job id `interval-<n>`. */
export type WeightSetterJobs = {
  [QueueName.Weights]: {
    [WeightsJob.SetWeights]: JobSpec<SetWeightsData, WeightsPassDto>;
  };
};

export const intervalJobId = (interval: number): string => `interval-${interval}`;

/** `@OnJob` typed by `WeightSetterJobs`: a handler's data and result must be its job's. */
export const OnWeightSetterJob = onJobOf<WeightSetterJobs>();
