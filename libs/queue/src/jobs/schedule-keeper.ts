import { BeforeApplicationShutdown, Logger, OnApplicationBootstrap, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { DecoratedMethods } from '@rcs/events';
import { ScheduleDeclarationError } from '../errors';
import { OnJob } from '../registry/on-job.decorator';
import { Repeat } from '../registry/repeat.decorator';
import type { JobCatalog } from './job-catalog';
import type { JobQueue } from './job-queue.service';

/** A repeatable job: one BullMQ job scheduler (data `{}`), however many replicas keep it. */
export interface RepeatableSchedule {
  queue: string;
  name: string;
  schedulerId: string;
  everySeconds: number;
  /** `Provider.method` that declared it, for error messages. */
  source: string;
}

/** The schedules declared with `@Repeat` on `@OnJob` methods, their intervals read from `config`. */
export function declaredSchedules(methods: DecoratedMethods, config: unknown): RepeatableSchedule[] {
  const problems: string[] = [];
  const schedules = new Map<string, RepeatableSchedule>();
  for (const { meta, source, metaOf } of methods.find(Repeat)) {
    const job = metaOf(OnJob);
    if (!job) {
      problems.push(`${source} has a @Repeat schedule but no @OnJob`);
      continue;
    }
    const key = `${job.queue}/${meta.schedulerId}`;
    const other = schedules.get(key);
    if (other) problems.push(`${other.source} and ${source} both declare the schedule ${key}`);
    else schedules.set(key, { queue: job.queue, name: job.name, schedulerId: meta.schedulerId, everySeconds: meta.everySeconds(config), source });
  }
  if (problems.length > 0) throw new ScheduleDeclarationError(problems);
  return [...schedules.values()];
}

/**
 * Keeps the repeatable schedules declared with `@Repeat` in Redis. They live only there: a Redis that
 * restarts empty loses them, and nothing would run the sweeps or the checks until the next boot. At
 * boot it stores each one; a timer outside Redis (every `checkIntervalSeconds`) looks for each one and
 * re-adds what is missing. Each app provides one, typed by its catalog and given its config
 * (`class ScheduleKeeper extends ScheduleKeeperOf<AppJobs>`), beside `DecoratedMethods`.
 */
export abstract class ScheduleKeeperOf<C extends JobCatalog>
  implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown
{
  protected readonly logger = new Logger('ScheduleKeeper');
  private schedules: RepeatableSchedule[] = [];
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<number> | null = null;
  /** Settles once every schedule is stored at boot (or storing failed and was logged). */
  scheduled: Promise<void> = Promise.resolve();

  constructor(
    private readonly jobs: JobQueue<C>,
    private readonly methods: DecoratedMethods,
    private readonly config: unknown,
    private readonly checkIntervalSeconds: number,
  ) {}

  // Read at init, before any Redis connection: a misdeclared schedule fails the boot cleanly.
  onModuleInit(): void {
    this.schedules = declaredSchedules(this.methods, this.config);
  }

  /**
   * Stores every schedule and keeps them from then on. Never holds up the boot: with Redis down the
   * app still starts (and its health says so); `scheduled` settles once they are stored or the failures logged.
   */
  onApplicationBootstrap(): void {
    this.scheduled = Promise.all(this.schedules.map((schedule) => this.keep(schedule))).then(() => undefined);
    this.timer = setInterval(() => void this.restoreMissing(), this.checkIntervalSeconds * 1000);
    this.timer.unref();
  }

  // A quick stop must not close the queues under a scheduling call still in flight.
  beforeApplicationShutdown(): Promise<void> {
    return this.scheduled;
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

  private keep(schedule: RepeatableSchedule): Promise<void> {
    return this.upsert(schedule).catch((error: Error) => this.logger.error(`Could not schedule ${schedule.name}: ${error.message}`));
  }

  private async restore(): Promise<number> {
    let restored = 0;
    for (const schedule of this.schedules) {
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
      .upsertJobScheduler(schedule.schedulerId, { every: schedule.everySeconds * 1000 }, { name: schedule.name, data: {} });
  }
}
