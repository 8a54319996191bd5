import { Inject, Injectable } from '@nestjs/common';
import { EmptyJobData, EpochJob, QueueName, RolloverData } from '@rcs/contracts';
import { JobQueue, ScheduledJob } from '@rcs/queue';
import { DataSource } from 'typeorm';
import { InjectDataSource } from '@nestjs/typeorm';
import { PoolClock } from '../common/pool-clock';
import { PoolServiceConfig } from '../config/config';
import { POOL_CONFIG } from '../config/config.module';
import { EpochCheckOutcome, OnPoolJob, PoolJobs } from '../jobs/pool-jobs';
import { EpochsRepository } from './epochs.repository';
import { EpochsService, RolloverResult } from './epochs.service';

export const EPOCH_CHECK_SCHEDULER_ID = 'epoch-check';

/** BullMQ refuses integer custom ids: the rollover of window N has job id `window-N`. */
export function rolloverJobId(window: number): string {
  return `window-${window}`;
}

/**
 * `pool.epochs`: a repeatable check enqueues the rollover of the window that just ended (one job
 * per window whatever the number of replicas) and retries a pending publication.
 */
@Injectable()
export class EpochsJob extends ScheduledJob {
  constructor(
    private readonly service: EpochsService,
    private readonly epochs: EpochsRepository,
    private readonly jobs: JobQueue<PoolJobs>,
    private readonly clock: PoolClock,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(POOL_CONFIG) private readonly config: PoolServiceConfig,
  ) {
    super();
  }

  protected keepSchedule(): Promise<void> {
    const every = this.config.payout.epochCheckSeconds * 1000;
    return this.jobs
      .upsertScheduler(QueueName.Epochs, EPOCH_CHECK_SCHEDULER_ID, { every }, { name: EpochJob.Check, data: {} })
      .catch((error: Error) => this.logger.error(`Could not schedule the epoch check: ${error.message}`));
  }

  @OnPoolJob(QueueName.Epochs, EpochJob.Check)
  async check(_data: EmptyJobData): Promise<EpochCheckOutcome> {
    const latest = await this.epochs.latest(this.dataSource.manager);
    if (latest !== null && latest.publication === 'pending' && this.service.publicationEnabled) await this.service.publish(latest.epoch);
    const ended = (await this.clock.currentWindow()) - 1;
    if (ended < 0 || (latest !== null && latest.epoch >= ended)) return { enqueued: null };
    await this.jobs.add(QueueName.Epochs, EpochJob.Rollover, { window: ended }, { jobId: rolloverJobId(ended), removeOnComplete: 1000, removeOnFail: 1000 });
    return { enqueued: ended };
  }

  @OnPoolJob(QueueName.Epochs, EpochJob.Rollover)
  rollover(data: RolloverData): Promise<RolloverResult> {
    return this.service.rollover(data.window);
  }
}
