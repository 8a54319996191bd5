import { Inject, Injectable } from '@nestjs/common';
import { JobQueue, ScheduleKeeperOf } from '@rcs/queue';
import { PoolServiceConfig } from '../config/config';
import { POOL_CONFIG } from '../config/config.module';
import { PoolJobs } from './pool-jobs';

/** The pool's keeper of repeatable schedules (SCHEDULE_CHECK_INTERVAL_SECONDS): an emptied Redis gets them back. */
@Injectable()
export class ScheduleKeeper extends ScheduleKeeperOf<PoolJobs> {
  constructor(jobs: JobQueue<PoolJobs>, @Inject(POOL_CONFIG) config: PoolServiceConfig) {
    super(jobs, config.scheduleCheckIntervalSeconds);
  }
}
