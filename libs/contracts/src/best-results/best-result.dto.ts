import { ApiProperty } from '@nestjs/swagger';
import { MetricDirection } from '../enums';

/** `GET /api/v1/tasks/{task_id}/best`: the task's current best accepted result. */
export class BestResultDto {
  @ApiProperty({ type: String, description: 'Task id.' })
  task_id!: string;

  @ApiProperty({ type: String, description: 'Submission holding the best result.' })
  submission_id!: string;

  @ApiProperty({ type: String, description: 'Primary metric key.' })
  metric_name!: string;

  @ApiProperty({ description: 'Direction of the primary metric.', enum: MetricDirection, enumName: 'MetricDirection' })
  metric_direction!: MetricDirection;

  @ApiProperty({ description: 'Unit of the metric, when known.', type: String, nullable: true })
  metric_unit!: string | null;

  @ApiProperty({ description: 'Verified metric value.', type: Number })
  metric_value!: number;

  @ApiProperty({ type: String, description: 'Hotkey of the miner holding the best.' })
  miner_hotkey!: string;

  @ApiProperty({ description: 'When this result became the best.', type: String, format: 'date-time' })
  updated_at!: string;
}
