import { Inject, Injectable } from '@nestjs/common';
import { JobQueue, ScheduleKeeperOf, type RepeatableScheduleOf } from '@rcs/queue';
import { CoordinatorConfig } from '../config/config';
import { COORDINATOR_CONFIG } from '../config/config.module';
import { CoordinatorJobs } from './coordinator-jobs';

/** A repeatable job of the coordinator's catalog. */
export type RepeatableSchedule = RepeatableScheduleOf<CoordinatorJobs>;

/** The coordinator's keeper of repeatable schedules (SCHEDULE_CHECK_INTERVAL_SECONDS): see `ScheduleKeeperOf`. */
@Injectable()
export class ScheduleKeeper extends ScheduleKeeperOf<CoordinatorJobs> {
  constructor(jobs: JobQueue<CoordinatorJobs>, @Inject(COORDINATOR_CONFIG) config: CoordinatorConfig) {
    super(jobs, config.scheduleCheckIntervalSeconds);
  }
}
