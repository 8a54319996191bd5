import { Inject, Injectable } from '@nestjs/common';
import { EmptyJobData, MaintenanceJob, QueueName } from '@rcs/contracts';
import { ScheduledJob } from '@rcs/queue';
import { CoordinatorConfig } from '../config/config';
import { COORDINATOR_CONFIG } from '../config/config.module';
import { ScheduleKeeper } from '../jobs/schedule-keeper';
import type { ExpiryOutcome } from '../jobs/job-results';
import { ClaimsService } from './claims.service';
import { OnCoordinatorJob } from '../jobs/coordinator-jobs';

/** Scheduler id of the repeatable sweep: one schedule however many replicas upsert it. */
export const CLAIM_SWEEP_SCHEDULER_ID = 'expire-claims';

/** The BullMQ sweeper that expires claims past their TTL (DECISIONS.md §4). */
@Injectable()
export class ClaimExpiryJob extends ScheduledJob {
  constructor(
    private readonly claims: ClaimsService,
    private readonly schedules: ScheduleKeeper,
    @Inject(COORDINATOR_CONFIG) private readonly config: CoordinatorConfig,
  ) {
    super();
  }

  protected keepSchedule(): Promise<void> {
    const everySeconds = this.config.claimSweepIntervalSeconds;
    return this.schedules.keep({ queue: QueueName.Maintenance, schedulerId: CLAIM_SWEEP_SCHEDULER_ID, name: MaintenanceJob.ExpireClaims, data: {}, everySeconds });
  }

  @OnCoordinatorJob(QueueName.Maintenance, MaintenanceJob.ExpireClaims)
  async expireClaims(_data: EmptyJobData): Promise<ExpiryOutcome> {
    const outcome = await this.claims.expireAll();
    if (outcome.expired > 0) this.logger.log(`Expired ${outcome.expired} claim(s), reopened ${outcome.reopened} work item(s)`);
    return outcome;
  }
}
