import { Check, Column, Entity } from 'typeorm';
import { CreatedAt, IntegerColumn, ManyToOneOn, nullable, NumericColumn, PrimaryKey, TextColumn, TimestampColumn } from '@rcs/persistence';
import { RewardSnapshotEntity } from './reward-snapshot.entity';

export const PUBLICATION_STATES = ['pending', 'published'] as const;
export type PublicationState = (typeof PUBLICATION_STATES)[number];

/** One epoch = the rollover of one window (DECISIONS.md §8); written once, then only its publication state changes. */
@Entity({ name: 'epochs' })
@Check('epochs_publication_check', `publication IN ('pending', 'published')`)
@Check('epochs_published_check', `(publication = 'published') = (published_at IS NOT NULL)`)
@Check('epochs_amounts_check', `budget >= 0 AND carried_in >= 0 AND carried_over >= 0 AND total_amount >= 0 AND leaf_count >= 0`)
export class EpochEntity {
  /** The window number. */
  @PrimaryKey('integer', 'epochs_pkey')
  epoch!: number;

  @Column({ type: 'bigint', nullable: true })
  snapshotId!: string | null;

  @ManyToOneOn(() => RewardSnapshotEntity, 'snapshot_id', 'epochs_snapshot_fkey', nullable)
  snapshot?: RewardSnapshotEntity | null;

  /** The coordinator was unreachable: the last stored snapshot (within the max age) was used. */
  @Column({ type: 'boolean' })
  snapshotStale!: boolean;

  @NumericColumn(20, 0)
  budget!: string;

  @NumericColumn(20, 0)
  carriedIn!: string;

  @NumericColumn(20, 0)
  carriedOver!: string;

  /** 0x-prefixed BLAKE2b-256 root. */
  @TextColumn()
  root!: string;

  @IntegerColumn()
  leafCount!: number;

  /** Σ leaf amounts (`total_rao` of `publish_epoch`). */
  @NumericColumn(20, 0)
  totalAmount!: string;

  /** The allocation document, byte for byte as served. */
  @TextColumn()
  allocationDocument!: string;

  @TextColumn()
  allocationSha256!: string;

  /** End of the span whose reputation the `local` competition scored (the next epoch starts there). */
  @TimestampColumn()
  localCutoffAt!: Date;

  @TextColumn({ default: 'pending' })
  publication!: PublicationState;

  @IntegerColumn(nullable)
  publishedBlock!: number | null;

  @IntegerColumn(nullable)
  claimsOpenAtBlock!: number | null;

  @TimestampColumn(nullable)
  publishedAt!: Date | null;

  @TextColumn(nullable)
  txHash!: string | null;

  @IntegerColumn({ default: 0 })
  publishAttempts!: number;

  @TextColumn(nullable)
  lastPublishError!: string | null;

  @TimestampColumn(nullable)
  lastPublishAttemptAt!: Date | null;

  @CreatedAt()
  createdAt!: Date;
}
