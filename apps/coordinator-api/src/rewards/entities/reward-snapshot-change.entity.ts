import { Entity } from 'typeorm';
import { PrimaryKey, TimestampColumn } from '@rcs/persistence';

/**
 * A committed transaction that changed what the reward snapshot is built from and that no rebuild
 * has read yet (written by the triggers of migration RewardSnapshotChanges1764115200000).
 */
@Entity({ name: 'reward_snapshot_changes' })
export class RewardSnapshotChangeEntity {
  /** `txid_current()` of the writing transaction: one row per transaction, however many statements. */
  @PrimaryKey('bigint', 'reward_snapshot_changes_pkey')
  xactId!: string;

  @TimestampColumn({ default: () => 'now()' })
  changedAt!: Date;
}
