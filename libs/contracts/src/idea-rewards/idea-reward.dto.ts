import { ApiProperty } from '@nestjs/swagger';

/** Credit for an idea whose implementation became the new best (centerless, DECISIONS §6). */
export class IdeaRewardDto {
  @ApiProperty({ type: String, description: 'Idea reward id.' })
  id!: string;

  @ApiProperty({ type: String, description: 'Task id.' })
  task_id!: string;

  @ApiProperty({ type: String, description: 'Submission that became the new best.' })
  improved_submission_id!: string;

  @ApiProperty({ type: String, description: 'Submission that proposed the idea.' })
  idea_submission_id!: string;

  @ApiProperty({ type: String, description: 'Owner of the idea submission.' })
  proposer_hotkey!: string;

  @ApiProperty({ type: String, description: 'Owner of the new best.' })
  implementer_hotkey!: string;

  @ApiProperty({ type: String, description: 'Task metric name.' })
  metric_name!: string;

  @ApiProperty({ description: 'Best value before; null when there was no best.', type: Number, nullable: true })
  previous_metric_value!: number | null;

  @ApiProperty({ description: 'Value of the new best.', type: Number })
  improved_metric_value!: number;

  @ApiProperty({ description: '|previous − improved|; null when there was no previous best.', type: Number, nullable: true })
  improvement_amount!: number | null;

  @ApiProperty({ description: 'Creation time.', type: String, format: 'date-time' })
  created_at!: string;
}
