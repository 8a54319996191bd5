import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { AlgorithmEntity } from '../../algorithms/entities/algorithm.entity';

export const POOL_RESULT_STATUSES = ['pending', 'verified'] as const;
export type PoolResultStatus = (typeof POOL_RESULT_STATUSES)[number];

/** A scored algorithm that beat its task type's threshold, pending until a validator verifies it. */
@Entity({ name: 'results' })
@Index('results_algorithm_unique', ['algorithmId'], { unique: true })
@Index('results_status_created_idx', ['status', 'createdAt'])
@Check('results_status_check', `status IN ('pending', 'verified')`)
@Check('results_verified_check', `(status = 'verified') = (verified_at IS NOT NULL AND verified_by IS NOT NULL)`)
export class ResultEntity {
  @PrimaryGeneratedColumn('increment', { type: 'integer', primaryKeyConstraintName: 'results_pkey' })
  id!: number;

  @Column({ type: 'integer' })
  algorithmId!: number;

  @ManyToOne(() => AlgorithmEntity, { nullable: false })
  @JoinColumn({ name: 'algorithm_id', foreignKeyConstraintName: 'results_algorithm_fkey' })
  algorithm?: AlgorithmEntity;

  @Column({ type: 'text' })
  taskType!: string;

  @Column({ type: 'text', nullable: true })
  minerHotkey!: string | null;

  @Column({ type: 'double precision' })
  score!: number;

  @Column({ type: 'integer' })
  evaluations!: number;

  @Column({ type: 'text' })
  status!: PoolResultStatus;

  @Column({ type: 'text', nullable: true })
  verifiedBy!: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  verifiedAt!: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}
