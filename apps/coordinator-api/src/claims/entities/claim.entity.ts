import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
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
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'claims_pkey' })
  id!: string;

  @Column({ type: 'uuid' })
  @ForeignKey(() => TaskEntity, { name: 'claims_task_id_fkey' })
  taskId!: string;

  /** Set when the claim was made through a work item. */
  @Column({ type: 'uuid', nullable: true })
  @ForeignKey(() => WorkItemEntity, { name: 'claims_work_item_id_fkey' })
  workItemId!: string | null;

  @Column({ type: 'text' })
  minerHotkey!: string;

  @Column({ type: 'text' })
  claimDescription!: string;

  @Column({ type: 'uuid', nullable: true })
  @ForeignKey(() => SubmissionEntity, { name: 'claims_base_submission_fk' })
  baseSubmissionId!: string | null;

  @Column({ type: 'text' })
  status!: ClaimStatus;

  @Column({ type: 'timestamptz' })
  expiresAt!: Date;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;
}
