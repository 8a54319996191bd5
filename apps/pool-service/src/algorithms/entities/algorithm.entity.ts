import { Check, Entity, Index } from 'typeorm';
import { CreatedAt, DoubleColumn, IntegerColumn, ManyToOneOn, nullable, SerialPrimaryKey, TextColumn, TimestampColumn } from '@rcs/persistence';
import { MinerEntity } from '../../miners/entities/miner.entity';

export const ALGORITHM_SOURCES = ['seed', 'evolution'] as const;
export type AlgorithmSource = (typeof ALGORITHM_SOURCES)[number];
export const ALGORITHM_STATUSES = ['pending', 'scored', 'rejected'] as const;
export type AlgorithmStatus = (typeof ALGORITHM_STATUSES)[number];

/** An algorithm as opaque DSL text; miners evaluate it off-service and consensus scores it (DECISIONS.md §11). */
@Entity({ name: 'algorithms' })
@Index('algorithms_dsl_unique', ['taskType', 'dslHash'], { unique: true })
@Index('algorithms_pending_idx', ['taskType', 'evaluationsCount'], { where: `status = 'pending'` })
@Index('algorithms_scored_idx', ['taskType', 'consensusScore'], { where: `status = 'scored'` })
@Index('algorithms_author_idx', ['authorHotkey'])
@Index('algorithms_author_owner_idx', ['authorOwner'])
@Check('algorithms_task_type_check', `task_type ~ '^[a-z0-9_]{1,64}$'`)
@Check('algorithms_input_dim_check', `input_dim BETWEEN 1 AND 1000000`)
@Check('algorithms_source_check', `source IN ('seed', 'evolution')`)
@Check('algorithms_status_check', `status IN ('pending', 'scored', 'rejected')`)
@Check('algorithms_scored_check', `(status = 'scored') = (consensus_score IS NOT NULL)`)
@Check('algorithms_author_check', `(source = 'seed') = (author_hotkey IS NULL)`)
@Check('algorithms_author_owner_check', `(author_hotkey IS NULL) = (author_owner IS NULL)`)
@Check('algorithms_score_finite_check', `consensus_score NOT IN ('Infinity', '-Infinity', 'NaN')`)
export class AlgorithmEntity {
  @SerialPrimaryKey('integer', 'algorithms_pkey')
  id!: number;

  @TextColumn()
  taskType!: string;

  @TextColumn()
  algorithmDsl!: string;

  /**
   * SHA-256 hex of the canonical DSL (`dslHash`): one algorithm per task type. Rows that the canonical form
   * made equal when it was introduced hold `{hash}:{id}` (all but the oldest; `CanonicalDslHash1795711439859`).
   */
  @TextColumn()
  dslHash!: string;

  @IntegerColumn()
  inputDim!: number;

  /** The parents the author named (all of them algorithms of its assignment). */
  @IntegerColumn({ array: true })
  parentIds!: number[];

  /** The parents its assignment offered: the best score among them is the bar of the improvement bonus. */
  @IntegerColumn({ array: true })
  barParentIds!: number[];

  @TextColumn(nullable)
  authorHotkey!: string | null;

  @ManyToOneOn(() => MinerEntity, 'author_hotkey', 'algorithms_author_fkey', { nullable: true, referencedColumnName: 'hotkey' })
  author?: MinerEntity | null;

  /** The owner coldkey of the author when it submitted (DECISIONS.md §11 Sybil resistance); null for seeds. */
  @TextColumn(nullable)
  authorOwner!: string | null;

  @TextColumn()
  source!: AlgorithmSource;

  @TextColumn()
  status!: AlgorithmStatus;

  @DoubleColumn(nullable)
  consensusScore!: number | null;

  @IntegerColumn({ default: 0 })
  evaluationsCount!: number;

  @CreatedAt()
  createdAt!: Date;

  @TimestampColumn(nullable)
  decidedAt!: Date | null;
}
