import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { MinerEntity } from '../../miners/entities/miner.entity';

export const ASSIGNMENT_KINDS = ['evolve', 'evaluate', 'lease'] as const;
export type AssignmentKind = (typeof ASSIGNMENT_KINDS)[number];
export const ASSIGNMENT_STATUSES = ['active', 'submitted', 'expired'] as const;
export type AssignmentStatus = (typeof ASSIGNMENT_STATUSES)[number];

/** A batch or a lease: one active per miner, one lease per miner per window (DECISIONS.md §11). */
@Entity({ name: 'assignments' })
@Index('assignments_one_active_unique', ['minerHotkey'], { unique: true, where: `status = 'active'` })
@Index('assignments_one_lease_per_window_unique', ['minerHotkey', 'windowNumber'], { unique: true, where: `kind = 'lease'` })
@Index('assignments_active_timeout_idx', ['timeoutAt'], { where: `status = 'active'` })
@Check('assignments_kind_check', `kind IN ('evolve', 'evaluate', 'lease')`)
@Check('assignments_status_check', `status IN ('active', 'submitted', 'expired')`)
@Check('assignments_lease_window_check', `(kind = 'lease') = (window_number IS NOT NULL)`)
@Check('assignments_evolve_budget_check', `evolve_budget >= 0`)
export class AssignmentEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'assignments_pkey' })
  id!: string;

  @Column({ type: 'text' })
  minerHotkey!: string;

  @ManyToOne(() => MinerEntity, { nullable: false })
  @JoinColumn({ name: 'miner_hotkey', referencedColumnName: 'hotkey', foreignKeyConstraintName: 'assignments_miner_fkey' })
  miner?: MinerEntity;

  @Column({ type: 'text' })
  kind!: AssignmentKind;

  @Column({ type: 'text' })
  status!: AssignmentStatus;

  /** Benchmark task type of the algorithms handed out. */
  @Column({ type: 'text' })
  taskType!: string;

  /** Algorithms to evaluate (evaluate batches, leases) or parents to evolve (evolve batches). */
  @Column({ type: 'integer', array: true })
  algorithmIds!: number[];

  /** Parents a lease offers for evolution. */
  @Column({ type: 'integer', array: true })
  seedIds!: number[];

  @Column({ type: 'integer', nullable: true })
  windowNumber!: number | null;

  /** Evolutions the assignment accepts. */
  @Column({ type: 'integer' })
  evolveBudget!: number;

  @Column({ type: 'timestamptz' })
  timeoutAt!: Date;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;
}
