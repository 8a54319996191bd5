import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ResultEntity } from './result.entity';

/** The state-of-the-art threshold of a task type; only a verification raises it. */
@Entity({ name: 'sota_thresholds' })
export class SotaEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'sota_thresholds_pkey' })
  taskType!: string;

  @Column({ type: 'double precision' })
  threshold!: number;

  @Column({ type: 'integer', nullable: true })
  resultId!: number | null;

  @ManyToOne(() => ResultEntity, { nullable: true })
  @JoinColumn({ name: 'result_id', foreignKeyConstraintName: 'sota_thresholds_result_fkey' })
  result?: ResultEntity | null;

  @Column({ type: 'timestamptz', nullable: true })
  updatedAt!: Date | null;
}
