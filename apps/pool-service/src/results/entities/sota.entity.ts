import { Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { DoubleColumn, IntegerColumn, TimestampColumn } from '@rcs/persistence';
import { ResultEntity } from './result.entity';

/** The state-of-the-art threshold of a task type; only a verification raises it. */
@Entity({ name: 'sota_thresholds' })
export class SotaEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'sota_thresholds_pkey' })
  taskType!: string;

  @DoubleColumn()
  threshold!: number;

  @IntegerColumn({ nullable: true })
  resultId!: number | null;

  @ManyToOne(() => ResultEntity, { nullable: true })
  @JoinColumn({ name: 'result_id', foreignKeyConstraintName: 'sota_thresholds_result_fkey' })
  result?: ResultEntity | null;

  @TimestampColumn({ nullable: true })
  updatedAt!: Date | null;
}
