import { Entity, PrimaryColumn } from 'typeorm';
import { DoubleColumn, IntegerColumn, ManyToOneOn, TimestampColumn } from '@rcs/persistence';
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

  @ManyToOneOn(() => ResultEntity, 'result_id', 'sota_thresholds_result_fkey', { nullable: true })
  result?: ResultEntity | null;

  @TimestampColumn({ nullable: true })
  updatedAt!: Date | null;
}
