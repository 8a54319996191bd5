import { Inject, Injectable } from '@nestjs/common';
import { EmptyJobData, PoolMaintenanceJob, QueueName } from '@rcs/contracts';
import { ScheduledJob } from '@rcs/queue';
import { PoolServiceConfig } from '../config/config';
import { POOL_CONFIG } from '../config/config.module';
import { AssignmentExpiryOutcome, OnPoolJob } from '../jobs/pool-jobs';
import { ScheduleKeeper } from '../jobs/schedule-keeper';
import { AssignmentsService } from './assignments.service';

/** Scheduler id of the repeatable sweep: one schedule however many replicas upsert it. */
export const ASSIGNMENT_SWEEP_SCHEDULER_ID = 'expire-assignments';

/** The BullMQ sweeper that expires batches and leases past `timeout_at` (DECISIONS.md §11). */
@Injectable()
export class AssignmentExpiryJob extends ScheduledJob {
  constructor(
    private readonly assignments: AssignmentsService,
    private readonly schedules: ScheduleKeeper,
    @Inject(POOL_CONFIG) private readonly config: PoolServiceConfig,
  ) {
    super();
  }

  protected keepSchedule(): Promise<void> {
    // Without Redis the app still starts (/health says so); the keeper logs the failure and re-adds it later.
    const everySeconds = this.config.mining.assignmentSweepIntervalSeconds;
    return this.schedules.keep({
      queue: QueueName.PoolMaintenance,
      schedulerId: ASSIGNMENT_SWEEP_SCHEDULER_ID,
      name: PoolMaintenanceJob.ExpireAssignments,
      data: {},
      everySeconds,
    });
  }

  @OnPoolJob(QueueName.PoolMaintenance, PoolMaintenanceJob.ExpireAssignments)
  async expireAssignments(_data: EmptyJobData): Promise<AssignmentExpiryOutcome> {
    const expired = await this.assignments.expireAll();
    if (expired > 0) this.logger.log(`Expired ${expired} assignment(s)`);
    return { expired };
  }
}
