import { Entity } from 'typeorm';
import { PrimaryKey, TextColumn, TimestampColumn } from '@rcs/persistence';

/** The cached reward snapshot: the exact JSON served, rebuilt by a BullMQ job after every decision. */
@Entity({ name: 'reward_snapshots' })
export class RewardSnapshotEntity {
  /** Always `current`: one row, replaced by each rebuild. */
  @PrimaryKey('text', 'reward_snapshots_pkey')
  id!: string;

  @TimestampColumn()
  generatedAt!: Date;

  /** The serialised snapshot, byte for byte what GET /reward-snapshot answers. */
  @TextColumn()
  body!: string;
}
