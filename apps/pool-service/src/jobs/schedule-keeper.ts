import { Inject, Injectable } from '@nestjs/common';
import { DecoratedMethods } from '@rcs/events';
import { JobQueue, ScheduleKeeperOf } from '@rcs/queue';
import { PoolServiceConfig } from '../config/config';
import { POOL_CONFIG } from '../config/config.module';
import { PoolJobs } from './pool-jobs';

/**
 * The pool's keeper of the repeatable schedules declared with `@RepeatPoolJob` (checked every
 * SCHEDULE_CHECK_INTERVAL_SECONDS): an emptied Redis gets them back.
 */
@Injectable()
export class ScheduleKeeper extends ScheduleKeeperOf<PoolJobs> {
  constructor(jobs: JobQueue<PoolJobs>, methods: DecoratedMethods, @Inject(POOL_CONFIG) config: PoolServiceConfig) {
    super(jobs, methods, config, config.scheduleCheckIntervalSeconds);
  }
}
