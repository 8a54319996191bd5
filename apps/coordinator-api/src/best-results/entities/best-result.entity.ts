import { Check, Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { MetricDirection } from '@rcs/contracts';
import { SubmissionEntity } from '../../submissions/entities/submission.entity';
import { TaskEntity } from '../../tasks/entities/task.entity';

/** The current best of a task; written only under the task row lock of the decision protocol. */
@Entity({ name: 'best_results' })
@Check('best_results_metric_direction_check', "metric_direction IN ('maximize', 'minimize')")
export class BestResultEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'best_results_pkey' })
  @ForeignKey(() => TaskEntity, { name: 'best_results_task_id_fkey' })
  taskId!: string;

  @Column({ type: 'uuid' })
  @ForeignKey(() => SubmissionEntity, { name: 'best_results_submission_id_fkey' })
  submissionId!: string;

  @Column({ type: 'text' })
  metricName!: string;

  @Column({ type: 'text' })
  metricDirection!: MetricDirection;

  @Column({ type: 'double precision' })
  metricValue!: number;

  @Column({ type: 'double precision', nullable: true })
  secondaryMetricValue!: number | null;

  @Column({ type: 'text' })
  minerHotkey!: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
