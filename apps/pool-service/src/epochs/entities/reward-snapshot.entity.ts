import { Check, Column, Entity, Index } from 'typeorm';
import { CreatedAt, SerialPrimaryKey, TextColumn, TimestampColumn } from '@rcs/persistence';

/** The coordinator's reward snapshot exactly as fetched (bytes and their SHA-256), kept as epoch evidence (DECISIONS.md §8). */
@Entity({ name: 'reward_snapshots' })
@Index('reward_snapshots_sha256_unique', ['sha256'], { unique: true })
@Index('reward_snapshots_fetched_idx', ['fetchedAt'])
@Check('reward_snapshots_sha256_check', `sha256 ~ '^[0-9a-f]{64}$'`)
export class RewardSnapshotEntity {
  @SerialPrimaryKey('bigint', 'reward_snapshots_pkey')
  id!: string;

  @TextColumn()
  sha256!: string;

  @Column({ type: 'bytea' })
  body!: Buffer;

  /** The snapshot's own `generated_at`. */
  @TimestampColumn()
  generatedAt!: Date;

  /** When it was last fetched (a byte-identical refetch moves it forward). */
  @CreatedAt()
  fetchedAt!: Date;
}
