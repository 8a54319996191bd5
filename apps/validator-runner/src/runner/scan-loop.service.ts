import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import { QueueName, ReplayJob, ValidatorJobDto } from '@rcs/contracts';
import { JobQueue } from '@rcs/queue';
import type { ValidatorRunnerConfig } from '../config/config';
import { CoordinatorClient, CoordinatorUnreachableError } from '../coordinator/coordinator.client';
import type { RunnerJobs } from './runner-jobs';
import { RUNNER_CONFIG, RUNNER_LOGGER } from './tokens';

/**
 * `run`: every RUNNER_SCAN_INTERVAL_SECONDS, when the local queue has room, lease jobs with a signed scan
 * and queue each under its coordinator job id, so a restart neither loses a job (it waits in Redis) nor
 * runs it twice (a second add of the same id is ignored).
 */
@Injectable()
export class ScanLoop implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  /** While the coordinator does not answer (e.g. it is still starting): said once, not once per scan. */
  private waiting = false;

  constructor(
    @Inject(RUNNER_CONFIG) private readonly config: ValidatorRunnerConfig,
    @Inject(RUNNER_LOGGER) private readonly logger: Logger,
    @Inject(CoordinatorClient) private readonly client: CoordinatorClient,
    private readonly jobs: JobQueue<RunnerJobs>,
  ) {}

  onApplicationBootstrap(): void {
    this.logger.info({ hotkey: this.client.hotkey, coordinator: this.config.coordinatorUrl, interval_s: this.config.scanIntervalSeconds }, 'scan loop started');
    this.tick();
  }

  /** Stops scanning (and waits for a scan in flight) before the workers close. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private tick(): void {
    this.running = this.scanOnce()
      .then(() => {
        if (this.waiting) this.logger.info({ coordinator: this.config.coordinatorUrl }, 'coordinator answers; scanning');
        this.waiting = false;
      })
      .catch((error: unknown) => this.scanFailed(error))
      .finally(() => {
        if (!this.stopped) this.timer = setTimeout(() => this.tick(), this.config.scanIntervalSeconds * 1000);
      });
  }

  private scanFailed(error: unknown): void {
    if (!(error instanceof CoordinatorUnreachableError)) {
      this.logger.warn({ err: error }, 'scan failed; trying again next interval');
      return;
    }
    if (this.waiting) {
      this.logger.debug({ reason: error.message }, 'scan: coordinator still unreachable');
      return;
    }
    this.waiting = true;
    this.logger.info({ coordinator: this.config.coordinatorUrl, reason: error.message }, `waiting for the coordinator at ${this.config.coordinatorUrl}`);
  }

  /** One scan for as many jobs as the queue has room for; answers how many were queued. */
  async scanOnce(): Promise<number> {
    const counts = await this.jobs.queue(QueueName.Replay).getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'paused');
    const room = this.config.concurrency - Object.values(counts).reduce((sum, n) => sum + n, 0);
    if (room <= 0) return 0;
    const leased = await this.client.scan(Math.min(this.config.scanLimit, room));
    for (const job of leased) await this.enqueue(job);
    if (leased.length > 0) this.logger.info({ phase: 'scan', jobs: leased.map((job) => job.job_id) }, `scan: leased ${leased.length} job(s)`);
    return leased.length;
  }

  private async enqueue(job: ValidatorJobDto): Promise<void> {
    await this.jobs.add(QueueName.Replay, ReplayJob.Replay, { job }, { jobId: job.job_id });
  }
}
