import { Inject, Injectable } from '@nestjs/common';
import { EmptyJobData, MaintenanceJob, QueueName } from '@rcs/contracts';
import { RepeatableJob } from '@rcs/queue';
import { CoordinatorConfig } from '../config/config';
import { COORDINATOR_CONFIG } from '../config/config.module';
import { ScheduleKeeper } from '../jobs/schedule-keeper';
import type { ExpiryOutcome } from '../jobs/job-results';
import { ClaimsService } from './claims.service';
import { CoordinatorJobs, OnCoordinatorJob } from '../jobs/coordinator-jobs';

/** Scheduler id of the repeatable sweep: one schedule however many replicas upsert it. */
export const CLAIM_SWEEP_SCHEDULER_ID = 'expire-claims';

/** The BullMQ sweeper that expires claims past their TTL (DECISIONS.md §4). */
@Injectable()
export class ClaimExpiryJob extends RepeatableJob<CoordinatorJobs> {
  constructor(
    private readonly claims: ClaimsService,
    schedules: ScheduleKeeper,
    @Inject(COORDINATOR_CONFIG) config: CoordinatorConfig,
  ) {
    super(schedules, { queue: QueueName.Maintenance, schedulerId: CLAIM_SWEEP_SCHEDULER_ID, name: MaintenanceJob.ExpireClaims, data: {}, everySeconds: config.claimSweepIntervalSeconds });
  }

  @OnCoordinatorJob(QueueName.Maintenance, MaintenanceJob.ExpireClaims)
  async expireClaims(_data: EmptyJobData): Promise<ExpiryOutcome> {
    const outcome = await this.claims.expireAll();
    if (outcome.expired > 0) this.logger.log(`Expired ${outcome.expired} claim(s), reopened ${outcome.reopened} work item(s)`);
    return outcome;
  }
}
