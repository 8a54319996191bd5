import { Inject, Injectable } from '@nestjs/common';
import { EmptyJobData, QueueName, RebuildSnapshotData, RewardsJob } from '@rcs/contracts';
import { RepeatableJob } from '@rcs/queue';
import { CoordinatorConfig } from '../config/config';
import { COORDINATOR_CONFIG } from '../config/config.module';
import { DomainEvents } from '../events/domain-events';
import { ScheduleKeeper } from '../jobs/schedule-keeper';
import type { RebuildOutcome, SnapshotCheckOutcome } from '../jobs/job-results';
import { RewardSnapshotService } from './reward-snapshot.service';
import { CoordinatorJobs, OnCoordinatorJob } from '../jobs/coordinator-jobs';

/** Scheduler id of the repeatable snapshot check: one schedule however many replicas keep it. */
export const SNAPSHOT_CHECK_SCHEDULER_ID = 'check-reward-snapshot';

/**
 * Consumer side: rebuilds and stores the reward snapshot (one run at a time, see RewardsRebuildService),
 * and the periodic check that rebuilds whenever a committed change is not in the served snapshot (a
 * request lost to a Redis or Postgres outage, a rebuild killed mid-way) or it is older than
 * SNAPSHOT_MAX_AGE_SECONDS, so no change is missing from it longer than SNAPSHOT_CHECK_INTERVAL_SECONDS.
 */
@Injectable()
export class RewardsRebuildJob extends RepeatableJob<CoordinatorJobs> {
  constructor(
    private readonly snapshots: RewardSnapshotService,
    schedules: ScheduleKeeper,
    @Inject(COORDINATOR_CONFIG) config: CoordinatorConfig,
    private readonly events: DomainEvents,
  ) {
    super(schedules, { queue: QueueName.Rewards, schedulerId: SNAPSHOT_CHECK_SCHEDULER_ID, name: RewardsJob.CheckSnapshot, data: {}, everySeconds: config.snapshotCheckIntervalSeconds });
  }

  @OnCoordinatorJob(QueueName.Rewards, RewardsJob.RebuildSnapshot)
  async rebuild(data: RebuildSnapshotData): Promise<RebuildOutcome> {
    const outcome = await this.build();
    this.logger.log(`Rebuilt the reward snapshot at ${outcome.generated_at} (${outcome.bytes} bytes) after ${data.reason}${data.task_id ? ` on task ${data.task_id}` : ''}`);
    return outcome;
  }

  @OnCoordinatorJob(QueueName.Rewards, RewardsJob.CheckSnapshot)
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
