import { Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { JobCatalog, JobDataOf, JobNameOf, QueueOf } from './job-catalog';
import type { JobQueue } from './job-queue.service';

/** A repeatable job of catalog `C`: one BullMQ job scheduler, however many replicas keep it. */
export type RepeatableScheduleOf<C extends JobCatalog> = {
  [Q in QueueOf<C>]: {
    [N in JobNameOf<C, Q>]: { queue: Q; name: N; data: JobDataOf<C, Q, N>; schedulerId: string; everySeconds: number };
  }[JobNameOf<C, Q>];
}[QueueOf<C>];

/**
 * Keeps the repeatable schedules in Redis. They live only there: a Redis that restarts empty loses
 * them, and nothing would run the sweeps or the checks until the next boot. A timer outside Redis
 * (every `checkIntervalSeconds`) looks for each one and re-adds what is missing. Each app provides
 * one, typed by its catalog (`class ScheduleKeeper extends ScheduleKeeperOf<AppJobs>`).
 */
export abstract class ScheduleKeeperOf<C extends JobCatalog> implements OnApplicationBootstrap, OnApplicationShutdown {
  protected readonly logger = new Logger('ScheduleKeeper');
  private readonly schedules = new Map<string, RepeatableScheduleOf<C>>();
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<number> | null = null;

  constructor(
    private readonly jobs: JobQueue<C>,
    private readonly checkIntervalSeconds: number,
  ) {}

  /**
   * Stores the schedule now and keeps it from then on. Never holds up the boot: with Redis down the
   * app still starts (and its health says so); the promise settles once it is stored or the failure logged.
   */
  keep(schedule: RepeatableScheduleOf<C>): Promise<void> {
    this.schedules.set(`${schedule.queue}/${schedule.schedulerId}`, schedule);
    return this.upsert(schedule).catch((error: Error) => this.logger.error(`Could not schedule ${schedule.name}: ${error.message}`));
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.restoreMissing(), this.checkIntervalSeconds * 1000);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** Re-adds every kept schedule Redis no longer holds; answers how many. One pass at a time. */
  restoreMissing(): Promise<number> {
    this.checking ??= this.restore().finally(() => {
      this.checking = null;
    });
    return this.checking;
  }

  private async restore(): Promise<number> {
    let restored = 0;
    for (const schedule of this.schedules.values()) {
      try {
        if (await this.jobs.queue(schedule.queue, schedule.name).getJobScheduler(schedule.schedulerId)) continue;
        await this.upsert(schedule);
        restored += 1;
        this.logger.warn(`Re-added the ${schedule.name} schedule, which Redis no longer held (restarted empty?)`);
      } catch (error) {
        // Redis down: the next pass tries again.
        this.logger.warn(`Could not check the ${schedule.name} schedule: ${(error as Error).message}`);
      }
    }
    return restored;
  }

  private async upsert(schedule: RepeatableScheduleOf<C>): Promise<void> {
    await this.jobs
      .queue(schedule.queue, schedule.name)
      .upsertJobScheduler(schedule.schedulerId, { every: schedule.everySeconds * 1000 }, { name: schedule.name, data: schedule.data });
  }
}
