import { Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { SubmissionEntity } from '../../submissions/entities/submission.entity';
import { TaskEntity } from '../../tasks/entities/task.entity';

/** Every change of a task's best (charts and audit). */
@Entity({ name: 'best_result_changes' })
@Index('best_result_changes_task_idx', ['taskId', 'createdAt'])
export class BestResultChangeEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'best_result_changes_pkey' })
  id!: string;

  @Column({ type: 'uuid' })
  @ForeignKey(() => TaskEntity, { name: 'best_result_changes_task_id_fkey' })
  taskId!: string;

  @Column({ type: 'uuid' })
  @ForeignKey(() => SubmissionEntity, { name: 'best_result_changes_submission_id_fkey' })
  submissionId!: string;

  @Column({ type: 'uuid', nullable: true })
  @ForeignKey(() => SubmissionEntity, { name: 'best_result_changes_previous_submission_id_fkey' })
  previousSubmissionId!: string | null;

  @Column({ type: 'double precision' })
  metricValue!: number;

  @Column({ type: 'double precision', nullable: true })
  previousMetricValue!: number | null;

  @Column({ type: 'double precision', nullable: true })
  secondaryMetricValue!: number | null;

  @Column({ type: 'text' })
  minerHotkey!: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}
