import { Injectable, Logger } from '@nestjs/common';
import { QueueName, RewardsJob } from '@rcs/contracts';
import { JobQueue } from '@rcs/queue';
import { CoordinatorJobs } from '../jobs/coordinator-jobs';

/** What made the snapshot stale (logged with the rebuild). */
export type RebuildReason = 'decision' | 'task_created' | 'task_state' | 'policy_update';

/**
 * Deduplication id of the rebuild job, queue-wide: BullMQ keeps at most one rebuild waiting and, with
 * `keepLastIfActive`, turns every request that arrives while one is running into exactly one more
 * run after it — atomically in Redis, so a request can neither be lost nor multiply the runs.
 */
export const REBUILD_DEDUPLICATION_ID = 'reward-snapshot';

const REBUILD_ATTEMPTS = 3;

/** Producer side of the snapshot's freshness (DECISIONS.md §7: rebuilt by a BullMQ job after every decision). */
@Injectable()
export class RewardsRebuildService {
  private readonly logger = new Logger(RewardsRebuildService.name);

  /** The add in flight, if any, and whether a request arrived after it started. */
  private inFlight: Promise<void> | null = null;
  private requestedAgain: { reason: RebuildReason; taskId: string | null } | null = null;

  constructor(private readonly jobs: JobQueue<CoordinatorJobs>) {}

  /**
   * Asks for a rebuild without waiting: a response never waits on a queue (with Redis down or
   * reconnecting, an add can take as long as the outage). At most one add is in flight; requests
   * meanwhile become one more add after it. What a lost request would have caught up is recorded
   * in `reward_snapshot_changes` by the change's own transaction, and the periodic check rebuilds it.
   */
  requestSoon(reason: RebuildReason, taskId: string | null): void {
    if (this.inFlight) {
      this.requestedAgain = { reason, taskId };
      return;
    }
    this.inFlight = this.request(reason, taskId).finally(() => {
      this.inFlight = null;
      const again = this.requestedAgain;
      this.requestedAgain = null;
      if (again) this.requestSoon(again.reason, again.taskId);
    });
  }

  /**
   * Asks for a rebuild; call it after the change has committed. Never throws: the change stands
   * either way, so a failed request is logged and the next request (or retry of a failed build) catches up.
   */
  async request(reason: RebuildReason, taskId: string | null): Promise<void> {
    try {
      await this.jobs.add(
        QueueName.Rewards,
        RewardsJob.RebuildSnapshot,
        { reason, task_id: taskId },
        {
          deduplication: { id: REBUILD_DEDUPLICATION_ID, keepLastIfActive: true },
          attempts: REBUILD_ATTEMPTS,
          backoff: { type: 'exponential', delay: 1000 },
        },
      );
    } catch (error) {
      this.logger.error(`Could not request a reward snapshot rebuild (${reason}, task ${taskId ?? '-'}): ${(error as Error).message}`);
    }
  }
}
