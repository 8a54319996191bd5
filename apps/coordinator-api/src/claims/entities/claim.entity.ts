import { Check, Entity, Index } from 'typeorm';
import { CreatedAt, ForeignKeyColumn, nullable, TextColumn, TimestampColumn, UpdatedAt, UuidPrimaryKey } from '@rcs/persistence';
import { ClaimStatus } from '@rcs/contracts';
import { SubmissionEntity } from '../../submissions/entities/submission.entity';
import { TaskEntity } from '../../tasks/entities/task.entity';
import { WorkItemEntity } from '../../work-items/entities/work-item.entity';

@Entity({ name: 'claims' })
@Index('claims_one_active_per_miner_unique', ['taskId', 'minerHotkey'], { unique: true, where: "status = 'active'" })
@Index('claims_active_expiry_idx', ['expiresAt'], { where: "status = 'active'" })
@Index('claims_task_status_idx', ['taskId', 'status', 'createdAt']) // (task_id, status, created_at DESC)
@Check('claims_status_check', "status IN ('active', 'submitted', 'expired', 'cancelled')")
export class ClaimEntity {
  @UuidPrimaryKey('claims_pkey')
  id!: string;

  @ForeignKeyColumn(() => TaskEntity, 'claims_task_id_fkey')
  taskId!: string;

  /** Set when the claim was made through a work item. */
  @ForeignKeyColumn(() => WorkItemEntity, 'claims_work_item_id_fkey', nullable)
  workItemId!: string | null;

  @TextColumn()
  minerHotkey!: string;

  @TextColumn()
  claimDescription!: string;

  @ForeignKeyColumn(() => SubmissionEntity, 'claims_base_submission_fk', nullable)
  baseSubmissionId!: string | null;

  @TextColumn()
  status!: ClaimStatus;

  @TimestampColumn()
  expiresAt!: Date;

  @CreatedAt()
  createdAt!: Date;

  @UpdatedAt()
  updatedAt!: Date;
}
