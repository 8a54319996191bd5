import type { JobCatalog, JobDataOf, JobHandlerOf, JobNameOf, QueueOf } from '../jobs/job-catalog';
import { Repeat } from './repeat.decorator';

/** A handler of any job of catalog `C` that a schedule can trigger: one whose data may be `{}`. */
export type RepeatableHandlerOf<C extends JobCatalog> = {
  [Q in QueueOf<C>]: {
    [N in JobNameOf<C, Q>]: Record<string, never> extends JobDataOf<C, Q, N> ? JobHandlerOf<C, Q, N> : never;
  }[JobNameOf<C, Q>];
}[QueueOf<C>];

/**
 * `@Repeat` typed by an app's catalog and config: `export const RepeatCoordinatorJob =
 * repeatOf<CoordinatorJobs, CoordinatorConfig>();` then, on an `@OnCoordinatorJob` handler,
 * `@RepeatCoordinatorJob({ schedulerId: 'expire-claims', everySeconds: (config) => config.claimSweepIntervalSeconds })`.
 * On a handler whose job needs data (a schedule adds `{}`) it does not compile.
 */
export function repeatOf<C extends JobCatalog, Config>() {
  return (repeat: { schedulerId: string; everySeconds: (config: Config) => number }) =>
    <M extends RepeatableHandlerOf<C>>(target: object, key: string | symbol, descriptor: TypedPropertyDescriptor<M>): void => {
      // The keeper of the app whose catalog types this decorator is given that app's config.
      Repeat({ schedulerId: repeat.schedulerId, everySeconds: (config) => repeat.everySeconds(config as Config) })(target, key, descriptor);
    };
}
