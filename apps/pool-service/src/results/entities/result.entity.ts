import { Check, Entity, Index } from 'typeorm';
import { CreatedAt, DoubleColumn, IntegerColumn, ManyToOneOn, nullable, SerialPrimaryKey, TextColumn, TimestampColumn } from '@rcs/persistence';
import { AlgorithmEntity } from '../../algorithms/entities/algorithm.entity';

export const POOL_RESULT_STATUSES = ['pending', 'verified'] as const;
export type PoolResultStatus = (typeof POOL_RESULT_STATUSES)[number];

/** A scored algorithm that beat its task type's threshold, pending until a validator verifies it. */
@Entity({ name: 'results' })
@Index('results_algorithm_unique', ['algorithmId'], { unique: true })
@Index('results_status_created_idx', ['status', 'createdAt'])
@Check('results_status_check', `status IN ('pending', 'verified')`)
@Check('results_score_finite_check', `score NOT IN ('Infinity', '-Infinity', 'NaN')`)
@Check('results_verified_check', `(status = 'verified') = (verified_at IS NOT NULL AND verified_by IS NOT NULL)`)
export class ResultEntity {
  @SerialPrimaryKey('integer', 'results_pkey')
  id!: number;

  @IntegerColumn()
  algorithmId!: number;

  @ManyToOneOn(() => AlgorithmEntity, 'algorithm_id', 'results_algorithm_fkey')
  algorithm?: AlgorithmEntity;

  @TextColumn()
  taskType!: string;

  @TextColumn(nullable)
  minerHotkey!: string | null;

  @DoubleColumn()
  score!: number;

  @IntegerColumn()
  evaluations!: number;

  @TextColumn()
  status!: PoolResultStatus;

  @TextColumn(nullable)
  verifiedBy!: string | null;

  @TimestampColumn(nullable)
  verifiedAt!: Date | null;

  @CreatedAt()
  createdAt!: Date;
}
