import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import type { SubtensorPort } from '@rcs/chain';
import { QueueName, WeightsJob } from '@rcs/contracts';
import { JobQueue, JobWorkers } from '@rcs/queue';
import type { WeightSetterConfig } from '../config/config';
import { OwnerLock } from './owner-lock';
import { RevealWatchService } from './reveal-watch.service';
import { SUBTENSOR, WEIGHTS_CONFIG, WEIGHTS_LOGGER } from './tokens';
import { intervalJobId, type WeightSetterJobs } from './weights-jobs';

/**
 * Keeps (or waits for) the hotkey's owner lock. The owner's worker takes `weights.set` jobs; the owner
 * looks at the pending commit's reveal every step, and adds one job per interval (`interval-<n>`, n = ⌊now / interval⌋, so every setter of the hotkey names an
 * interval alike and BullMQ keeps one job each); a standby's worker stays paused and it retries the
 * lock, taking over once the owner's lock lapses (or is released at a clean stop).
 */
@Injectable()
export class OwnershipService implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  #timer: NodeJS.Timeout | null = null;
  #stopped = false;
  #lastInterval: number | null = null;
  #ticking: Promise<void> = Promise.resolve();

  constructor(
    @Inject(WEIGHTS_CONFIG) private readonly config: WeightSetterConfig,
    @Inject(WEIGHTS_LOGGER) private readonly logger: Logger,
    @Inject(OwnerLock) private readonly lock: OwnerLock,
    @Inject(JobQueue) private readonly jobs: JobQueue<WeightSetterJobs>,
    @Inject(JobWorkers) private readonly workers: JobWorkers,
    @Inject(SUBTENSOR) private readonly chain: SubtensorPort,
    @Inject(RevealWatchService) private readonly reveals: RevealWatchService,
  ) {}

  get owner(): boolean {
    return this.lock.held;
  }

  onApplicationBootstrap(): void {
    // Connect to the chain before competing for the lock: the first connection decodes the runtime
    // metadata, which holds the event loop for a while and must not eat into the lock's TTL.
    this.#ticking = this.chain
      .latestBlock()
      .then(
        () => undefined,
        (error: unknown) => this.logger.warn({ err: error }, 'weights: chain not reachable at start; passes will fail until it is'),
      )
      .then(() => this.#schedule(0));
  }

  /** One step: renew or acquire, then (as owner) make sure the current interval has its job. */
  async tick(): Promise<void> {
    try {
      if (this.lock.token !== null) {
        if (!(await this.lock.renew())) {
          this.logger.warn('weights: lost the owner lock; standing by');
          await this.workers.pause(QueueName.Weights);
        }
      } else if ((await this.lock.tryAcquire()) !== null) {
        this.logger.info({ fencing_token: this.lock.token }, 'weights: this process owns the hotkey');
        this.workers.resume(QueueName.Weights);
      }
      if (this.lock.token !== null) {
        await this.#enqueueCurrentInterval();
        await this.reveals.check();
      }
    } catch (error) {
      this.logger.error({ err: error }, 'weights: ownership step failed');
    }
  }

  async #enqueueCurrentInterval(): Promise<void> {
    const interval = Math.floor(Date.now() / (this.config.intervalSeconds * 1000));
    if (interval === this.#lastInterval) return;
    await this.jobs.add(QueueName.Weights, WeightsJob.SetWeights, { interval }, {
      jobId: intervalJobId(interval),
      attempts: this.config.attempts,
      backoff: { type: 'exponential', delay: this.config.retryBackoffMs },
    });
    this.#lastInterval = interval;
  }

  #schedule(delayMs: number): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.#ticking = this.tick().then(() => this.#schedule(this.#period()));
    }, delayMs);
  }

  /** Often enough to renew well within the TTL and to notice each new interval. */
  #period(): number {
    return Math.max(100, Math.min(this.config.lockTtlMs / 3, (this.config.intervalSeconds * 1000) / 2));
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    await this.#ticking;
    // A running pass finishes first (the queue module waits for it); then the standby may take over at once.
    await this.workers.pause(QueueName.Weights).catch(() => undefined);
    await this.lock.release().catch(() => undefined);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.chain.close();
  }
}
