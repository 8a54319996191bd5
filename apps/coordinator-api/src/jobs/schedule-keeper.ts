import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { JobDataOf, JobNameOf, JobQueue, QueueOf } from '@rcs/queue';
import { CoordinatorConfig } from '../config/config';
import { COORDINATOR_CONFIG } from '../config/config.module';
import { CoordinatorJobs } from './coordinator-jobs';

type Jobs = CoordinatorJobs;

/** A repeatable job: one BullMQ job scheduler, however many replicas keep it. */
export type RepeatableSchedule = {
  [Q in QueueOf<Jobs>]: {
    [N in JobNameOf<Jobs, Q>]: { queue: Q; name: N; data: JobDataOf<Jobs, Q, N>; schedulerId: string; everySeconds: number };
  }[JobNameOf<Jobs, Q>];
}[QueueOf<Jobs>];

/**
 * Keeps the repeatable schedules in Redis. They live only there: a Redis that restarts empty loses
 * them, and nothing would run the sweeps or the snapshot check until the next boot. A timer outside
 * Redis (SCHEDULE_CHECK_INTERVAL_SECONDS) looks for each one and re-adds what is missing.
 */
@Injectable()
export class ScheduleKeeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ScheduleKeeper.name);
  private readonly schedules = new Map<string, RepeatableSchedule>();
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<number> | null = null;

  constructor(
    private readonly jobs: JobQueue<CoordinatorJobs>,
    @Inject(COORDINATOR_CONFIG) private readonly config: CoordinatorConfig,
  ) {}

  /**
   * Stores the schedule now and keeps it from then on. Never holds up the boot: with Redis down the
   * app still starts (and /readyz says so); the promise settles once it is stored or the failure logged.
   */
  keep(schedule: RepeatableSchedule): Promise<void> {
    this.schedules.set(`${schedule.queue}/${schedule.schedulerId}`, schedule);
    return this.upsert(schedule).catch((error: Error) => this.logger.error(`Could not schedule ${schedule.name}: ${error.message}`));
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.restoreMissing(), this.config.scheduleCheckIntervalSeconds * 1000);
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

  private async upsert(schedule: RepeatableSchedule): Promise<void> {
    await this.jobs
      .queue(schedule.queue, schedule.name)
      .upsertJobScheduler(schedule.schedulerId, { every: schedule.everySeconds * 1000 }, { name: schedule.name, data: schedule.data });
  }
}
