import { Column, Entity, PrimaryColumn } from 'typeorm';
import { MetricDirection } from '@rcs/contracts';

/** The current best of a task; written only under the task row lock of the decision protocol. */
@Entity({ name: 'best_results' })
export class BestResultEntity {
  @PrimaryColumn({ type: 'uuid' })
  taskId!: string;

  @Column({ type: 'uuid' })
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

  @Column({ type: 'timestamptz' })
  updatedAt!: Date;
}
