import { Injectable, Logger } from '@nestjs/common';
import { QueueName, RebuildSnapshotData, RewardsJob } from '@rcs/contracts';
import { OnJob } from '@rcs/queue';
import { RewardSnapshotService } from './reward-snapshot.service';

/** What one rebuild stored. */
export interface RebuildOutcome {
  generated_at: string;
  /** Size of the stored JSON in bytes. */
  bytes: number;
}

/** Consumer side: rebuilds and stores the reward snapshot (one run at a time, see RewardsRebuildService). */
@Injectable()
export class RewardsRebuildJob {
  private readonly logger = new Logger(RewardsRebuildJob.name);

  constructor(private readonly snapshots: RewardSnapshotService) {}

  @OnJob({ queue: QueueName.Rewards, name: RewardsJob.RebuildSnapshot })
  async rebuild(data: RebuildSnapshotData): Promise<RebuildOutcome> {
    const snapshot = await this.snapshots.rebuild();
    const bytes = Buffer.byteLength(snapshot.body);
    this.logger.log(`Rebuilt the reward snapshot at ${snapshot.generatedAt} (${bytes} bytes) after ${data.reason}${data.task_id ? ` on task ${data.task_id}` : ''}`);
    return { generated_at: snapshot.generatedAt, bytes };
  }
}
