import { BeforeApplicationShutdown, Logger, OnApplicationBootstrap } from '@nestjs/common';

/**
 * A job class that keeps one repeatable schedule from boot. `scheduled` settles once the schedule is
 * stored or the failure logged: storing never holds up the boot, so an app without Redis still starts.
 */
export abstract class ScheduledJob implements OnApplicationBootstrap, BeforeApplicationShutdown {
  protected readonly logger = new Logger(this.constructor.name);
  /** Settles once the repeatable schedule is stored (or storing failed and was logged). */
  scheduled: Promise<void> = Promise.resolve();

  /** Stores the repeatable schedule; must not reject (a failure is logged instead). */
  protected abstract keepSchedule(): Promise<void>;

  onApplicationBootstrap(): void {
    this.scheduled = this.keepSchedule();
  }

  // A quick stop must not close the queue under a scheduling call still in flight.
  beforeApplicationShutdown(): Promise<void> {
    return this.scheduled;
  }
}
