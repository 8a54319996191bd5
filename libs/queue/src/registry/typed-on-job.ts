import type { JobCatalog, JobHandlerOf, JobNameOf, QueueOf } from '../jobs/job-catalog';
import { OnJob } from './on-job.decorator';

/**
 * `@OnJob` typed by an app's catalog: `export const OnCoordinatorJob = onJobOf<CoordinatorJobs>();` then
 * `@OnCoordinatorJob(QueueName.Rewards, RewardsJob.RebuildSnapshot)`. A method whose parameter or result
 * is not the job's (as the catalog, and so the producers, say) does not compile.
 */
export function onJobOf<C extends JobCatalog>() {
  return <Q extends QueueOf<C>, N extends JobNameOf<C, Q>>(queue: Q, name: N) =>
    <M extends JobHandlerOf<C, Q, N>>(target: object, key: string | symbol, descriptor: TypedPropertyDescriptor<M>): void => {
      OnJob({ queue, name })(target, key, descriptor);
    };
}
