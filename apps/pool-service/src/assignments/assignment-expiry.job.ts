import { Inject, Injectable, Logger, OnApplicationBootstrap, BeforeApplicationShutdown } from '@nestjs/common';
import { EmptyJobData, PoolMaintenanceJob, QueueName } from '@rcs/contracts';
import { JobQueue } from '@rcs/queue';
import { PoolServiceConfig } from '../config/config';
import { POOL_CONFIG } from '../config/config.module';
import { AssignmentExpiryOutcome, OnPoolJob, PoolJobs } from '../jobs/pool-jobs';
import { AssignmentsService } from './assignments.service';

/** Scheduler id of the repeatable sweep: one schedule however many replicas upsert it. */
export const ASSIGNMENT_SWEEP_SCHEDULER_ID = 'expire-assignments';

/** The BullMQ sweeper that expires batches and leases past `timeout_at` (DECISIONS.md §11). */
@Injectable()
export class AssignmentExpiryJob implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(AssignmentExpiryJob.name);
  /** Settles once the repeatable sweep is scheduled (or scheduling failed and was logged). */
  scheduled: Promise<void> = Promise.resolve();

  constructor(
    private readonly assignments: AssignmentsService,
    private readonly jobs: JobQueue<PoolJobs>,
    @Inject(POOL_CONFIG) private readonly config: PoolServiceConfig,
  ) {}

  onApplicationBootstrap(): void {
    // Without Redis the app still starts (/health says so); the failure is logged.
    this.scheduled = this.jobs
      .upsertScheduler(
        QueueName.PoolMaintenance,
        ASSIGNMENT_SWEEP_SCHEDULER_ID,
        { every: this.config.mining.assignmentSweepIntervalSeconds * 1000 },
        { name: PoolMaintenanceJob.ExpireAssignments, data: {} },
      )
      .catch((error: Error) => this.logger.error(`Could not schedule the assignment sweep: ${error.message}`));
  }

  // A quick stop must not close the queue under a scheduling call still in flight.
  beforeApplicationShutdown(): Promise<void> {
    return this.scheduled;
  }

  @OnPoolJob(QueueName.PoolMaintenance, PoolMaintenanceJob.ExpireAssignments)
  async expireAssignments(_data: EmptyJobData): Promise<AssignmentExpiryOutcome> {
    const expired = await this.assignments.expireAll();
    if (expired > 0) this.logger.log(`Expired ${expired} assignment(s)`);
    return { expired };
  }
}
