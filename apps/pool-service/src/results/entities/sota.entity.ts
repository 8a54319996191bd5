import { Check, Entity } from 'typeorm';
import { DoubleColumn, IntegerColumn, ManyToOneOn, nullable, PrimaryKey, TimestampColumn } from '@rcs/persistence';
import { ResultEntity } from './result.entity';

/** The state-of-the-art threshold of a task type; only a verification raises it. */
@Entity({ name: 'sota_thresholds' })
@Check('sota_thresholds_finite_check', `threshold NOT IN ('Infinity', '-Infinity', 'NaN')`)
export class SotaEntity {
  @PrimaryKey('text', 'sota_thresholds_pkey')
  taskType!: string;

  @DoubleColumn()
  threshold!: number;

  @IntegerColumn(nullable)
  resultId!: number | null;

  @ManyToOneOn(() => ResultEntity, 'result_id', 'sota_thresholds_result_fkey', nullable)
  result?: ResultEntity | null;

  @TimestampColumn(nullable)
  updatedAt!: Date | null;
}
