import { Inject, Injectable } from '@nestjs/common';
import { EmptyJobData, PoolMaintenanceJob, QueueName } from '@rcs/contracts';
import { RepeatableJob } from '@rcs/queue';
import { PoolServiceConfig } from '../config/config';
import { POOL_CONFIG } from '../config/config.module';
import { AssignmentExpiryOutcome, OnPoolJob, PoolJobs } from '../jobs/pool-jobs';
import { ScheduleKeeper } from '../jobs/schedule-keeper';
import { AssignmentsService } from './assignments.service';

/** Scheduler id of the repeatable sweep: one schedule however many replicas upsert it. */
export const ASSIGNMENT_SWEEP_SCHEDULER_ID = 'expire-assignments';

/** The BullMQ sweeper that expires batches and leases past `timeout_at` (DECISIONS.md §11). */
@Injectable()
export class AssignmentExpiryJob extends RepeatableJob<PoolJobs> {
  // Without Redis the app still starts (/health says so); the keeper logs the failure and re-adds it later.
  constructor(
    private readonly assignments: AssignmentsService,
    schedules: ScheduleKeeper,
    @Inject(POOL_CONFIG) config: PoolServiceConfig,
  ) {
    super(schedules, {
      queue: QueueName.PoolMaintenance,
      schedulerId: ASSIGNMENT_SWEEP_SCHEDULER_ID,
      name: PoolMaintenanceJob.ExpireAssignments,
      data: {},
      everySeconds: config.mining.assignmentSweepIntervalSeconds,
    });
  }

  @OnPoolJob(QueueName.PoolMaintenance, PoolMaintenanceJob.ExpireAssignments)
  async expireAssignments(_data: EmptyJobData): Promise<AssignmentExpiryOutcome> {
    const expired = await this.assignments.expireAll();
    if (expired > 0) this.logger.log(`Expired ${expired} assignment(s)`);
    return { expired };
  }
}
