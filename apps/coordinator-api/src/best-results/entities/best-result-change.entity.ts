import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** Every change of a task's best (charts and audit). */
@Entity({ name: 'best_result_changes' })
export class BestResultChangeEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'uuid' })
  taskId!: string;

  @Column({ type: 'uuid' })
  submissionId!: string;

  @Column({ type: 'uuid', nullable: true })
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
