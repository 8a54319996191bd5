import { Check, Entity, Index, Unique } from 'typeorm';
import { CreatedAt, DoubleColumn, ForeignKeyColumn, IntegerColumn, nullable, TextColumn, TimestampColumn, UuidPrimaryKey } from '@rcs/persistence';
import { ExposureStatus } from '@rcs/contracts';
import { SubmissionEntity } from '../../submissions/entities/submission.entity';
import { TaskEntity } from '../../tasks/entities/task.entity';

/** What one held-out shard of a task has released (DECISIONS §17); the task's active one has `retiredAt` null. */
@Entity({ name: 'heldout_exposures' })
@Unique('heldout_exposures_task_seq_unique', ['taskId', 'seq'])
@Index('heldout_exposures_active_idx', ['taskId'], { unique: true, where: 'retired_at IS NULL' })
@Check('heldout_exposures_status_check', "status IN ('open', 'exhausted')")
@Check('heldout_exposures_bits_check', 'spent_bits >= 0 AND budget_bits > 0 AND releases >= 0')
export class HeldoutExposureEntity {
  @UuidPrimaryKey('heldout_exposures_pkey')
  id!: string;

  @ForeignKeyColumn(() => TaskEntity, 'heldout_exposures_task_id_fkey')
  taskId!: string;

  /** 1 for the task's first shard, then one more per rotation. */
  @IntegerColumn()
  seq!: number;

  /** The shard results are scored on; null for a task whose held-out data is its validators' own (one shard). */
  @TextColumn(nullable)
  shardSha256!: string | null;

  /** The released best R; null before the first release on this shard. */
  @DoubleColumn(nullable)
  releasedBest!: number | null;

  /** The submission whose release set R. */
  @ForeignKeyColumn(() => SubmissionEntity, 'heldout_exposures_leader_submission_id_fkey', nullable)
  leaderSubmissionId!: string | null;

  @IntegerColumn({ default: 0 })
  spentBits!: number;

  @IntegerColumn()
  budgetBits!: number;

  @IntegerColumn({ default: 0 })
  releases!: number;

  @TextColumn({ default: 'open' })
  status!: ExposureStatus;

  @CreatedAt()
  createdAt!: Date;

  @TimestampColumn(nullable)
  retiredAt!: Date | null;
}
