import { ApiProperty } from '@nestjs/swagger';

/** `GET /api/v1/tasks/{task_id}/best/history`: one change of a task's best (charts and audit, DECISIONS §3). */
export class BestResultChangeDto {
  @ApiProperty({ type: String, description: 'Task id.' })
  task_id!: string;

  @ApiProperty({ type: String, description: 'Submission that became the best.' })
  submission_id!: string;

  @ApiProperty({ type: String, description: 'Hotkey of the miner of that submission.' })
  miner_hotkey!: string;

  @ApiProperty({ description: 'Its verified primary metric value.', type: Number })
  metric_value!: number;

  @ApiProperty({ description: 'Its verified secondary metric value; null when the task has none or the result lacked it.', type: Number, nullable: true })
  secondary_metric_value!: number | null;

  @ApiProperty({ type: String, nullable: true, description: 'Submission it replaced; null for the first best.' })
  previous_submission_id!: string | null;

  @ApiProperty({ description: 'Primary metric value it replaced; null for the first best.', type: Number, nullable: true })
  previous_metric_value!: number | null;

  @ApiProperty({ description: 'When the change happened.', type: String, format: 'date-time' })
  changed_at!: string;
}
