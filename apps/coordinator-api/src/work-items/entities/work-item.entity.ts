import { Check, Entity, Index } from 'typeorm';
import { CreatedAt, ForeignKeyColumn, IntegerColumn, nullable, TextColumn, UpdatedAt, UuidPrimaryKey } from '@rcs/persistence';
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
  @UuidPrimaryKey('work_items_pkey')
  id!: string;

  @ForeignKeyColumn(() => TaskEntity, 'work_items_task_id_fkey')
  taskId!: string;

  @TextColumn()
  title!: string;

  @TextColumn()
  description!: string;

  @IntegerColumn({ default: 0 })
  priority!: number;

  @TextColumn()
  status!: WorkItemStatus;

  @TextColumn()
  source!: WorkItemSource;

  /** What the item is about, unique among the task's open or claimed items, so planners never duplicate one. */
  @TextColumn()
  dedupeKey!: string;

  @ForeignKeyColumn(() => SubmissionEntity, 'work_items_idea_submission_fk', nullable)
  ideaSubmissionId!: string | null;

  @ForeignKeyColumn(() => SubmissionEntity, 'work_items_parent_submission_fk', nullable)
  parentSubmissionId!: string | null;

  @ForeignKeyColumn(() => ClaimEntity, 'work_items_claim_fk', nullable)
  claimId!: string | null;

  @ForeignKeyColumn(() => SubmissionEntity, 'work_items_completed_submission_fk', nullable)
  completedSubmissionId!: string | null;

  @CreatedAt()
  createdAt!: Date;

  @UpdatedAt()
  updatedAt!: Date;
}
