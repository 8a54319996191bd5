import { Injectable, Logger } from '@nestjs/common';
import { EmptyJobData, QueueName, RebuildSnapshotData, RewardsJob } from '@rcs/contracts';
import { DomainEvents } from '../events/domain-events';
import type { RebuildOutcome, SnapshotCheckOutcome } from '../jobs/job-results';
import { RewardSnapshotService } from './reward-snapshot.service';
import { OnCoordinatorJob, RepeatCoordinatorJob } from '../jobs/coordinator-jobs';

/** Scheduler id of the repeatable snapshot check: one schedule however many replicas keep it. */
export const SNAPSHOT_CHECK_SCHEDULER_ID = 'check-reward-snapshot';

/**
 * Consumer side: rebuilds and stores the reward snapshot (one run at a time, see RewardsRebuildService),
 * and the periodic check that rebuilds whenever a committed change is not in the served snapshot (a
 * request lost to a Redis or Postgres outage, a rebuild killed mid-way) or it is older than
 * SNAPSHOT_MAX_AGE_SECONDS, so no change is missing from it longer than SNAPSHOT_CHECK_INTERVAL_SECONDS.
 */
@Injectable()
export class RewardsRebuildJob {
  private readonly logger = new Logger(RewardsRebuildJob.name);

  constructor(
    private readonly snapshots: RewardSnapshotService,
    private readonly events: DomainEvents,
  ) {}

  @OnCoordinatorJob(QueueName.Rewards, RewardsJob.RebuildSnapshot)
  async rebuild(data: RebuildSnapshotData): Promise<RebuildOutcome> {
    const outcome = await this.build();
    this.logger.log(`Rebuilt the reward snapshot at ${outcome.generated_at} (${outcome.bytes} bytes) after ${data.reason}${data.task_id ? ` on task ${data.task_id}` : ''}`);
    return outcome;
  }

  @OnCoordinatorJob(QueueName.Rewards, RewardsJob.CheckSnapshot)
  @RepeatCoordinatorJob({ schedulerId: SNAPSHOT_CHECK_SCHEDULER_ID, everySeconds: (config) => config.snapshotCheckIntervalSeconds })
  async check(_data: EmptyJobData): Promise<SnapshotCheckOutcome> {
    const stale = await this.snapshots.staleness();
    if (stale === null) return { stale, rebuilt: null };
    const rebuilt = await this.build();
    this.logger.log(`Rebuilt the reward snapshot at ${rebuilt.generated_at} (${rebuilt.bytes} bytes): it was ${stale}`);
    return { stale, rebuilt };
  }

  private async build(): Promise<RebuildOutcome> {
    const snapshot = await this.snapshots.rebuild();
    const outcome = { generated_at: snapshot.generatedAt, bytes: Buffer.byteLength(snapshot.body) };
    this.events.emit('snapshot.rebuilt', { generatedAt: outcome.generated_at, bytes: outcome.bytes });
    return outcome;
  }
}
