import { Logger } from '@nestjs/common';
import { QueueName } from '@rcs/contracts';
import { JobNameOf, JobQueue } from '@rcs/queue';
import { CoordinatorJobs } from './coordinator-jobs';

/** A repeatable maintenance sweep: one BullMQ job scheduler, however many replicas upsert it. */
export interface MaintenanceSweep {
  schedulerId: string;
  name: JobNameOf<CoordinatorJobs, QueueName.Maintenance>;
  everySeconds: number;
}

/**
 * Schedules the sweep without holding up the boot: with Redis down the app still starts (and /readyz
 * says so) and the failure is logged. The promise settles once the schedule is stored or logged.
 */
export function scheduleMaintenanceSweep(jobs: JobQueue<CoordinatorJobs>, sweep: MaintenanceSweep, logger: Logger): Promise<void> {
  return jobs
    .upsertScheduler(QueueName.Maintenance, sweep.schedulerId, { every: sweep.everySeconds * 1000 }, { name: sweep.name, data: {} })
    .catch((error: Error) => logger.error(`Could not schedule the ${sweep.name} sweep: ${error.message}`));
}
