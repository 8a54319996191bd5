import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { WorkItemSource, WorkItemStatus } from '@rcs/contracts';

@Entity({ name: 'work_items' })
export class WorkItemEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'uuid' })
  taskId!: string;

  @Column({ type: 'text' })
  title!: string;

  @Column({ type: 'text' })
  description!: string;

  @Column({ type: 'integer' })
  priority!: number;

  @Column({ type: 'text' })
  status!: WorkItemStatus;

  @Column({ type: 'text' })
  source!: WorkItemSource;

  /** What the item is about, unique among the task's open or claimed items, so planners never duplicate one. */
  @Column({ type: 'text' })
  dedupeKey!: string;

  @Column({ type: 'uuid', nullable: true })
  ideaSubmissionId!: string | null;

  @Column({ type: 'uuid', nullable: true })
  parentSubmissionId!: string | null;

  @Column({ type: 'uuid', nullable: true })
  claimId!: string | null;

  @Column({ type: 'uuid', nullable: true })
  completedSubmissionId!: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;
}
