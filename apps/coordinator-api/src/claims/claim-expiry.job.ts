import { Injectable, Logger } from '@nestjs/common';
import { EmptyJobData, MaintenanceJob, QueueName } from '@rcs/contracts';
import type { ExpiryOutcome } from '../jobs/job-results';
import { ClaimsService } from './claims.service';
import { OnCoordinatorJob, RepeatCoordinatorJob } from '../jobs/coordinator-jobs';

/** The BullMQ sweeper that expires claims past their TTL (DECISIONS.md §4). */
@Injectable()
export class ClaimExpiryJob {
  private readonly logger = new Logger(ClaimExpiryJob.name);

  constructor(private readonly claims: ClaimsService) {}

  @OnCoordinatorJob(QueueName.Maintenance, MaintenanceJob.ExpireClaims)
  @RepeatCoordinatorJob({ schedulerId: 'expire-claims', everySeconds: (config) => config.claimSweepIntervalSeconds })
  async expireClaims(_data: EmptyJobData): Promise<ExpiryOutcome> {
    const outcome = await this.claims.expireAll();
    if (outcome.expired > 0) this.logger.log(`Expired ${outcome.expired} claim(s), reopened ${outcome.reopened} work item(s)`);
    return outcome;
  }
}
