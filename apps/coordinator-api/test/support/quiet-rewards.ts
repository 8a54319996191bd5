import { QueueName } from '@rcs/contracts';
import { JobQueue } from '@rcs/queue';
import { CoordinatorJobs } from '../../src/jobs/coordinator-jobs';
import { ScheduleKeeper } from '../../src/jobs/schedule-keeper';
import { SNAPSHOT_CHECK_SCHEDULER_ID } from '../../src/rewards/rewards-rebuild.job';
import type { CoordinatorHarness } from '../harness';
import { until } from './until';

/**
 * For tests that decide when the snapshot is rebuilt: the periodic check runs once at boot, so its scheduler is
 * removed and the check it already queued is let finish; no rebuild then lands between a test's own rebuild and
 * its read.
 */
export async function quietRewards(h: CoordinatorHarness): Promise<void> {
  await h.app.get(ScheduleKeeper).scheduled;
  const rewards = h.app.get<JobQueue<CoordinatorJobs>>(JobQueue).queue(QueueName.Rewards);
  await rewards.removeJobScheduler(SNAPSHOT_CHECK_SCHEDULER_ID);
  await until('no check waiting or running', () => rewards.getJobCounts('wait', 'active', 'delayed'), (c) => c.wait + c.active + c.delayed === 0);
}
