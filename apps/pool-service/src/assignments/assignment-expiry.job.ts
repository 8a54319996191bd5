import { Injectable, Logger } from '@nestjs/common';
import { EmptyJobData, PoolMaintenanceJob, QueueName } from '@rcs/contracts';
import { AssignmentExpiryOutcome, OnPoolJob, RepeatPoolJob } from '../jobs/pool-jobs';
import { AssignmentsService } from './assignments.service';

/** The BullMQ sweeper that expires batches and leases past `timeout_at` (DECISIONS.md §11). */
@Injectable()
export class AssignmentExpiryJob {
  private readonly logger = new Logger(AssignmentExpiryJob.name);

  constructor(private readonly assignments: AssignmentsService) {}

  @OnPoolJob(QueueName.PoolMaintenance, PoolMaintenanceJob.ExpireAssignments)
  // Without Redis the app still starts (/health says so); the keeper logs the failure and re-adds it later.
  @RepeatPoolJob({ schedulerId: 'expire-assignments', everySeconds: (config) => config.mining.assignmentSweepIntervalSeconds })
  async expireAssignments(_data: EmptyJobData): Promise<AssignmentExpiryOutcome> {
    const expired = await this.assignments.expireAll();
    if (expired > 0) this.logger.log(`Expired ${expired} assignment(s)`);
    return { expired };
  }
}
