import { Injectable, Logger } from '@nestjs/common';
import { EmptyJobData, MaintenanceJob, QueueName } from '@rcs/contracts';
import type { LeaseExpiryOutcome } from '../jobs/job-results';
import { DomainEvents } from '../events/domain-events';
import { ValidatorJobsService } from './validator-jobs.service';
import { OnCoordinatorJob, RepeatCoordinatorJob } from '../jobs/coordinator-jobs';

/** The BullMQ sweeper that ends validator-job leases past their expiry (DECISIONS.md §6). */
@Injectable()
export class LeaseExpiryJob {
  private readonly logger = new Logger(LeaseExpiryJob.name);

  constructor(
    private readonly validatorJobs: ValidatorJobsService,
    private readonly events: DomainEvents,
  ) {}

  @OnCoordinatorJob(QueueName.Maintenance, MaintenanceJob.ExpireLeases)
  @RepeatCoordinatorJob({ schedulerId: 'expire-leases', everySeconds: (config) => config.leaseSweepIntervalSeconds })
  async expireLeases(_data: EmptyJobData): Promise<LeaseExpiryOutcome> {
    const outcome = await this.validatorJobs.expireLeases();
    this.events.emit('leases.expired', { returned: outcome.returned, exhausted: outcome.errored });
    if (outcome.returned > 0 || outcome.errored > 0) {
      this.logger.log(`Returned ${outcome.returned} expired lease(s) to the pool, ended ${outcome.errored} submission(s) out of attempts`);
    }
    return outcome;
  }
}
