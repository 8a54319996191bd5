import { QueueName, ReplayJob, ReplayJobData } from '@rcs/contracts';
import { onJobOf, type JobSpec } from '@rcs/queue';
import type { JobReport } from './job-processor';

/** The runner's one queue: each leased coordinator job, keyed by its job id. */
export type RunnerJobs = {
  [QueueName.Replay]: {
    [ReplayJob.Replay]: JobSpec<ReplayJobData, JobReport>;
  };
};

/** `@OnJob` typed by `RunnerJobs`: a handler's data and result must be its job's. */
export const OnRunnerJob = onJobOf<RunnerJobs>();
