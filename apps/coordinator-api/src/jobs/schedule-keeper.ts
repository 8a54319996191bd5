import { Inject, Injectable } from '@nestjs/common';
import { DecoratedMethods } from '@rcs/events';
import { JobQueue, ScheduleKeeperOf } from '@rcs/queue';
import { CoordinatorConfig } from '../config/config';
import { COORDINATOR_CONFIG } from '../config/config.module';
import { CoordinatorJobs } from './coordinator-jobs';

/**
 * The coordinator's keeper of the repeatable schedules declared with `@RepeatCoordinatorJob`
 * (checked every SCHEDULE_CHECK_INTERVAL_SECONDS): see `ScheduleKeeperOf`.
 */
@Injectable()
export class ScheduleKeeper extends ScheduleKeeperOf<CoordinatorJobs> {
  constructor(jobs: JobQueue<CoordinatorJobs>, methods: DecoratedMethods, @Inject(COORDINATOR_CONFIG) config: CoordinatorConfig) {
    super(jobs, methods, config, config.scheduleCheckIntervalSeconds);
  }
}
