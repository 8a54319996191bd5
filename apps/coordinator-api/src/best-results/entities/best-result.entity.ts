import { Check, Entity, ForeignKey } from 'typeorm';
import { DoubleColumn, ForeignKeyColumn, nullable, PrimaryKey, TextColumn, TimestampColumn } from '@rcs/persistence';
import { MetricDirection } from '@rcs/contracts';
import { SubmissionEntity } from '../../submissions/entities/submission.entity';
import { TaskEntity } from '../../tasks/entities/task.entity';

/** The current best of a task; written only under the task row lock of the decision protocol. */
@Entity({ name: 'best_results' })
@Check('best_results_metric_direction_check', "metric_direction IN ('maximize', 'minimize')")
export class BestResultEntity {
  @PrimaryKey('uuid', 'best_results_pkey')
  @ForeignKey(() => TaskEntity, { name: 'best_results_task_id_fkey' })
  taskId!: string;

  @ForeignKeyColumn(() => SubmissionEntity, 'best_results_submission_id_fkey')
  submissionId!: string;

  @TextColumn()
  metricName!: string;

  @TextColumn()
  metricDirection!: MetricDirection;

  @DoubleColumn()
  metricValue!: number;

  @DoubleColumn(nullable)
  secondaryMetricValue!: number | null;

  @TextColumn()
  minerHotkey!: string;

  @TimestampColumn({ default: () => 'now()' })
  updatedAt!: Date;
}
