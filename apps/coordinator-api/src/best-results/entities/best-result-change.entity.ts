import { Entity, Index } from 'typeorm';
import { CreatedAt, DoubleColumn, ForeignKeyColumn, nullable, TextColumn, UuidPrimaryKey } from '@rcs/persistence';
import { SubmissionEntity } from '../../submissions/entities/submission.entity';
import { TaskEntity } from '../../tasks/entities/task.entity';

/** Every change of a task's best (charts and audit). */
@Entity({ name: 'best_result_changes' })
@Index('best_result_changes_task_idx', ['taskId', 'createdAt'])
export class BestResultChangeEntity {
  @UuidPrimaryKey('best_result_changes_pkey')
  id!: string;

  @ForeignKeyColumn(() => TaskEntity, 'best_result_changes_task_id_fkey')
  taskId!: string;

  @ForeignKeyColumn(() => SubmissionEntity, 'best_result_changes_submission_id_fkey')
  submissionId!: string;

  @ForeignKeyColumn(() => SubmissionEntity, 'best_result_changes_previous_submission_id_fkey', nullable)
  previousSubmissionId!: string | null;

  @DoubleColumn()
  metricValue!: number;

  @DoubleColumn(nullable)
  previousMetricValue!: number | null;

  @DoubleColumn(nullable)
  secondaryMetricValue!: number | null;

  @TextColumn()
  minerHotkey!: string;

  @CreatedAt()
  createdAt!: Date;
}
