import { Check, Entity, Index } from 'typeorm';
import { CreatedAt, IntegerColumn, ManyToOneOn, nullable, TextColumn, TimestampColumn, UpdatedAt, UuidPrimaryKey } from '@rcs/persistence';
import { MinerEntity } from '../../miners/entities/miner.entity';

export const ASSIGNMENT_KINDS = ['evolve', 'evaluate', 'lease'] as const;
export type AssignmentKind = (typeof ASSIGNMENT_KINDS)[number];
export const ASSIGNMENT_STATUSES = ['active', 'submitted', 'expired'] as const;
export type AssignmentStatus = (typeof ASSIGNMENT_STATUSES)[number];

/** A batch or a lease: one active per miner, one lease per miner per window, batches per window per owner (DECISIONS.md §11). */
@Entity({ name: 'assignments' })
@Index('assignments_one_active_unique', ['minerHotkey'], { unique: true, where: `status = 'active'` })
@Index('assignments_one_lease_per_window_unique', ['minerHotkey', 'windowNumber'], { unique: true, where: `kind = 'lease'` })
@Index('assignments_active_timeout_idx', ['timeoutAt'], { where: `status = 'active'` })
@Index('assignments_owner_window_idx', ['ownerColdkey', 'windowNumber'])
@Check('assignments_kind_check', `kind IN ('evolve', 'evaluate', 'lease')`)
@Check('assignments_status_check', `status IN ('active', 'submitted', 'expired')`)
@Check('assignments_lease_window_check', `kind <> 'lease' OR window_number IS NOT NULL`)
@Check('assignments_evolve_budget_check', `evolve_budget >= 0`)
export class AssignmentEntity {
  @UuidPrimaryKey('assignments_pkey')
  id!: string;

  @TextColumn()
  minerHotkey!: string;

  @ManyToOneOn(() => MinerEntity, 'miner_hotkey', 'assignments_miner_fkey', { referencedColumnName: 'hotkey' })
  miner?: MinerEntity;

  /** The miner's owner coldkey when it was issued: batches per window are counted per owner (DECISIONS.md §11). */
  @TextColumn()
  ownerColdkey!: string;

  @TextColumn()
  kind!: AssignmentKind;

  @TextColumn()
  status!: AssignmentStatus;

  /** Benchmark task type of the algorithms handed out. */
  @TextColumn()
  taskType!: string;

  /** Algorithms to evaluate (evaluate batches, leases) or parents to evolve (evolve batches). */
  @IntegerColumn({ array: true })
  algorithmIds!: number[];

  /** Parents a lease offers for evolution. */
  @IntegerColumn({ array: true })
  seedIds!: number[];

  /** The window it was issued in (a lease's own, possibly simulated, window). */
  @IntegerColumn(nullable)
  windowNumber!: number | null;

  /** Evolutions the assignment accepts. */
  @IntegerColumn()
  evolveBudget!: number;

  @TimestampColumn()
  timeoutAt!: Date;

  @CreatedAt()
  createdAt!: Date;

  @UpdatedAt()
  updatedAt!: Date;
}
