import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { WorkItemSource, WorkItemStatus } from '@rcs/contracts';
import { ClaimEntity } from '../../claims/entities/claim.entity';
import { SubmissionEntity } from '../../submissions/entities/submission.entity';
import { TaskEntity } from '../../tasks/entities/task.entity';

@Entity({ name: 'work_items' })
@Index('work_items_live_dedupe_unique', ['taskId', 'dedupeKey'], { unique: true, where: "status IN ('open', 'claimed')" })
@Index('work_items_task_status_idx', ['taskId', 'status', 'createdAt']) // (task_id, status, created_at DESC)
@Check('work_items_status_check', "status IN ('open', 'claimed', 'completed', 'cancelled')")
@Check('work_items_source_check', "source IN ('planner', 'agentic_planner', 'admin')")
export class WorkItemEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'work_items_pkey' })
  id!: string;

  @Column({ type: 'uuid' })
  @ForeignKey(() => TaskEntity, { name: 'work_items_task_id_fkey' })
  taskId!: string;

  @Column({ type: 'text' })
  title!: string;

  @Column({ type: 'text' })
  description!: string;

  @Column({ type: 'integer', default: 0 })
  priority!: number;

  @Column({ type: 'text' })
  status!: WorkItemStatus;

  @Column({ type: 'text' })
  source!: WorkItemSource;

  /** What the item is about, unique among the task's open or claimed items, so planners never duplicate one. */
  @Column({ type: 'text' })
  dedupeKey!: string;

  @Column({ type: 'uuid', nullable: true })
  @ForeignKey(() => SubmissionEntity, { name: 'work_items_idea_submission_fk' })
  ideaSubmissionId!: string | null;

  @Column({ type: 'uuid', nullable: true })
  @ForeignKey(() => SubmissionEntity, { name: 'work_items_parent_submission_fk' })
  parentSubmissionId!: string | null;

  @Column({ type: 'uuid', nullable: true })
  @ForeignKey(() => ClaimEntity, { name: 'work_items_claim_fk' })
  claimId!: string | null;

  @Column({ type: 'uuid', nullable: true })
  @ForeignKey(() => SubmissionEntity, { name: 'work_items_completed_submission_fk' })
  completedSubmissionId!: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;
}
