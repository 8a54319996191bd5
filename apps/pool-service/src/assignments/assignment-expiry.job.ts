import { Inject, Injectable } from '@nestjs/common';
import { EmptyJobData, PoolMaintenanceJob, QueueName } from '@rcs/contracts';
import { JobQueue, ScheduledJob } from '@rcs/queue';
import { PoolServiceConfig } from '../config/config';
import { POOL_CONFIG } from '../config/config.module';
import { AssignmentExpiryOutcome, OnPoolJob, PoolJobs } from '../jobs/pool-jobs';
import { AssignmentsService } from './assignments.service';

/** Scheduler id of the repeatable sweep: one schedule however many replicas upsert it. */
export const ASSIGNMENT_SWEEP_SCHEDULER_ID = 'expire-assignments';

/** The BullMQ sweeper that expires batches and leases past `timeout_at` (DECISIONS.md §11). */
@Injectable()
export class AssignmentExpiryJob extends ScheduledJob {
  constructor(
    private readonly assignments: AssignmentsService,
    private readonly jobs: JobQueue<PoolJobs>,
    @Inject(POOL_CONFIG) private readonly config: PoolServiceConfig,
  ) {
    super();
  }

  protected keepSchedule(): Promise<void> {
    // Without Redis the app still starts (/health says so); the failure is logged.
    const every = this.config.mining.assignmentSweepIntervalSeconds * 1000;
    return this.jobs
      .upsertScheduler(QueueName.PoolMaintenance, ASSIGNMENT_SWEEP_SCHEDULER_ID, { every }, { name: PoolMaintenanceJob.ExpireAssignments, data: {} })
      .catch((error: Error) => this.logger.error(`Could not schedule the assignment sweep: ${error.message}`));
  }

  @OnPoolJob(QueueName.PoolMaintenance, PoolMaintenanceJob.ExpireAssignments)
  async expireAssignments(_data: EmptyJobData): Promise<AssignmentExpiryOutcome> {
    const expired = await this.assignments.expireAll();
    if (expired > 0) this.logger.log(`Expired ${expired} assignment(s)`);
    return { expired };
  }
}
