import { Entity, Index } from 'typeorm';
import { CreatedAt, nullable, PrimaryKey, TextColumn, TimestampColumn } from '@rcs/persistence';

/**
 * Every reward snapshot the coordinator stored to serve, by the SHA-256 of its bytes (DECISIONS §16):
 * `GET /api/v1/reward-snapshots/{sha256}` answers it unchanged, so a payout verifier can check the
 * snapshot an epoch names. Pruned `SNAPSHOT_HISTORY_DAYS` after a newer one replaced it.
 */
@Entity({ name: 'reward_snapshot_history' })
@Index('reward_snapshot_history_replaced_at_idx', ['replacedAt'])
export class RewardSnapshotHistoryEntity {
  /** Lowercase hex SHA-256 of `body` (UTF-8), as the pool records it with each epoch. */
  @PrimaryKey('text', 'reward_snapshot_history_pkey')
  sha256!: string;

  @TimestampColumn()
  generatedAt!: Date;

  /** The snapshot byte for byte as `GET /reward-snapshot` served it. */
  @TextColumn()
  body!: string;

  /** When it was first stored to serve. */
  @CreatedAt()
  createdAt!: Date;

  /** When a newer snapshot replaced it as the one served; null while it is current. */
  @TimestampColumn(nullable)
  replacedAt!: Date | null;
}
