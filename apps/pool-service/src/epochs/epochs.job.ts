import { Inject, Injectable, Logger } from '@nestjs/common';
import { EmptyJobData, EpochJob, QueueName, RolloverData } from '@rcs/contracts';
import { JobQueue } from '@rcs/queue';
import type { Job } from 'bullmq';
import { DataSource } from 'typeorm';
import { InjectDataSource } from '@nestjs/typeorm';
import { PoolClock } from '../common/pool-clock';
import { PoolServiceConfig } from '../config/config';
import { POOL_CONFIG } from '../config/config.module';
import { EpochCheckOutcome, OnPoolJob, PoolJobs, RepeatPoolJob } from '../jobs/pool-jobs';
import { EpochPublisher } from './epoch-publisher.service';
import { EpochsRepository } from './epochs.repository';
import { EpochsService, RolloverResult } from './epochs.service';
import { SnapshotRefusedError } from './errors';
import { publicationEnabled } from './publication-config';

export const EPOCH_CHECK_SCHEDULER_ID = 'epoch-check';

/** BullMQ refuses integer custom ids: the rollover of window N has job id `window-N`. */
export function rolloverJobId(window: number): string {
  return `window-${window}`;
}

/** A rollover job in one of these states will still run (or is running): adding it again would add nothing. */
const LIVE_STATES = new Set(['waiting', 'delayed', 'prioritized', 'waiting-children', 'active']);

/**
 * `pool.epochs`: a repeatable check rolls over every ended window that has no epoch, in order, one
 * job per window whatever the number of replicas, and retries a pending publication.
 *
 * Which windows: counted from the stored epochs, not from Redis (an emptied Redis or a killed job
 * forgets nothing the database knows). The first window is the one that had ended when the pool
 * first stored an epoch; from then on every window gets one, the earliest missing first. A rollover
 * that died (a killed process, a failed transaction, no snapshot) leaves a finished job and no
 * epoch: the check removes that job and runs the window again; the database makes it exactly once.
 */
@Injectable()
export class EpochsJob {
  private readonly logger = new Logger(EpochsJob.name);

  constructor(
    private readonly service: EpochsService,
    private readonly publisher: EpochPublisher,
    private readonly epochs: EpochsRepository,
    private readonly jobs: JobQueue<PoolJobs>,
    private readonly clock: PoolClock,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(POOL_CONFIG) private readonly config: PoolServiceConfig,
  ) {}

  @OnPoolJob(QueueName.Epochs, EpochJob.Check)
  @RepeatPoolJob({ schedulerId: EPOCH_CHECK_SCHEDULER_ID, everySeconds: (config) => config.payout.epochCheckSeconds })
  async check(_data: EmptyJobData): Promise<EpochCheckOutcome> {
    const latest = await this.epochs.latest(this.dataSource.manager);
    if (latest !== null && latest.publication === 'pending' && publicationEnabled(this.config)) await this.publisher.publish(latest.epoch);
    return { enqueued: await this.enqueueNext(latest?.epoch ?? null) };
  }

  @OnPoolJob(QueueName.Epochs, EpochJob.Rollover)
  async rollover(data: RolloverData, job: Job<RolloverData, RolloverResult>): Promise<RolloverResult> {
    let result: RolloverResult;
    try {
      // Until its last try, a rollover that cannot read the snapshot fails and is retried by BullMQ (POOL_QUEUES' backoff).
      result = await this.service.rollover(data.window, job.attemptsMade + 1 >= (job.opts.attempts ?? 1));
    } catch (error) {
      // A snapshot the contract refuses is not asked again: the job fails now (the check runs the window later).
      if (error instanceof SnapshotRefusedError) job.discard();
      throw error;
    }
    // Catching up: the next missing window follows at once rather than at the next check.
    if (result.rollover === 'stored' || result.rollover === 'existed') await this.enqueueNext(data.window);
    return result;
  }

  /** Enqueues the rollover of the earliest ended window after `latest` (the latest stored epoch), if any. */
  private async enqueueNext(latest: number | null): Promise<number | null> {
    const ended = (await this.clock.currentWindow()) - 1;
    // A pool without epochs starts at the window that just ended, not at the chain's first.
    const next = latest === null ? ended : latest + 1;
    if (next < 0 || next > ended) return null;
    const jobId = rolloverJobId(next);
    const existing = await this.jobs.queue(QueueName.Epochs, EpochJob.Rollover).getJob(jobId);
    if (existing) {
      const state = await existing.getState();
      // Waiting or running: it will store the epoch (a dead worker's job is re-run by the stall check once its lock expires, POOL_QUEUES).
      if (LIVE_STATES.has(state)) return next;
      // Finished without an epoch (it failed, found no snapshot, or its process died): run it again.
      this.logger.warn(`Window ${next} has no epoch though its rollover ${state === 'failed' ? `failed (${existing.failedReason})` : `ended (${JSON.stringify(existing.returnvalue)})`}; running it again`);
      await existing.remove();
    }
    await this.jobs.add(
      QueueName.Epochs,
      EpochJob.Rollover,
      { window: next },
      { jobId, removeOnComplete: 1000, removeOnFail: 1000, attempts: this.config.payout.snapshotAttempts, backoff: { type: 'custom' } },
    );
    return next;
  }
}
