import { Inject, Injectable } from '@nestjs/common';
import { EmptyJobData, MaintenanceJob, QueueName } from '@rcs/contracts';
import { RepeatableJob } from '@rcs/queue';
import { CoordinatorConfig } from '../config/config';
import { COORDINATOR_CONFIG } from '../config/config.module';
import { ScheduleKeeper } from '../jobs/schedule-keeper';
import type { LeaseExpiryOutcome } from '../jobs/job-results';
import { CoordinatorMetrics } from '../metrics/coordinator-metrics';
import { ValidatorJobsService } from './validator-jobs.service';
import { CoordinatorJobs, OnCoordinatorJob } from '../jobs/coordinator-jobs';

/** Scheduler id of the repeatable sweep: one schedule however many replicas upsert it. */
export const LEASE_SWEEP_SCHEDULER_ID = 'expire-leases';

/** The BullMQ sweeper that ends validator-job leases past their expiry (DECISIONS.md §6). */
@Injectable()
export class LeaseExpiryJob extends RepeatableJob<CoordinatorJobs> {
  constructor(
    private readonly validatorJobs: ValidatorJobsService,
    schedules: ScheduleKeeper,
    @Inject(COORDINATOR_CONFIG) config: CoordinatorConfig,
    private readonly metrics: CoordinatorMetrics,
  ) {
    super(schedules, { queue: QueueName.Maintenance, schedulerId: LEASE_SWEEP_SCHEDULER_ID, name: MaintenanceJob.ExpireLeases, data: {}, everySeconds: config.leaseSweepIntervalSeconds });
  }

  @OnCoordinatorJob(QueueName.Maintenance, MaintenanceJob.ExpireLeases)
  async expireLeases(_data: EmptyJobData): Promise<LeaseExpiryOutcome> {
    const outcome = await this.validatorJobs.expireLeases();
    this.metrics.leasesExpired.inc({ result: 'returned' }, outcome.returned);
    this.metrics.leasesExpired.inc({ result: 'exhausted' }, outcome.errored);
    if (outcome.returned > 0 || outcome.errored > 0) {
      this.logger.log(`Returned ${outcome.returned} expired lease(s) to the pool, ended ${outcome.errored} submission(s) out of attempts`);
    }
    return outcome;
  }
}
