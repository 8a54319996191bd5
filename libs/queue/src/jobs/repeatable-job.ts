import type { JobCatalog } from './job-catalog';
import type { RepeatableScheduleOf, ScheduleKeeperOf } from './schedule-keeper';
import { ScheduledJob } from './scheduled-job';

/**
 * A `ScheduledJob` whose one repeatable schedule is known when it is constructed (its interval comes
 * from the app's config): from boot the app's keeper stores it and keeps it.
 */
export abstract class RepeatableJob<C extends JobCatalog> extends ScheduledJob {
  protected constructor(
    private readonly keeper: ScheduleKeeperOf<C>,
    private readonly schedule: RepeatableScheduleOf<C>,
  ) {
    super();
  }

  protected keepSchedule(): Promise<void> {
    return this.keeper.keep(this.schedule);
  }
}
