import { ApiProperty } from '@nestjs/swagger';
import { WorkItemSource, WorkItemStatus } from '../enums';

/** A planned unit of work on a task (DECISIONS §4). */
export class WorkItemDto {
  @ApiProperty({ type: String, description: 'Work item id.' })
  id!: string;

  @ApiProperty({ type: String, description: 'Task id.' })
  task_id!: string;

  @ApiProperty({ type: String, description: 'Short title.' })
  title!: string;

  @ApiProperty({ type: String, description: 'What to do (Markdown).' })
  description!: string;

  @ApiProperty({ description: 'Higher runs first.', type: 'integer' })
  priority!: number;

  @ApiProperty({ description: 'Work item status.', enum: WorkItemStatus, enumName: 'WorkItemStatus' })
  status!: WorkItemStatus;

  @ApiProperty({ description: 'Who created the item.', enum: WorkItemSource, enumName: 'WorkItemSource' })
  source!: WorkItemSource;

  @ApiProperty({ description: 'Submission whose idea this item implements (centerless).', type: String, nullable: true })
  idea_submission_id!: string | null;

  @ApiProperty({ description: 'Submission this item improves on (e.g. the current best).', type: String, nullable: true })
  parent_submission_id!: string | null;

  @ApiProperty({ description: 'Claim holding the item while `claimed`.', type: String, nullable: true })
  claim_id!: string | null;

  @ApiProperty({ description: 'Submission that completed the item.', type: String, nullable: true })
  completed_submission_id!: string | null;

  @ApiProperty({ description: 'Creation time.', type: String, format: 'date-time' })
  created_at!: string;

  @ApiProperty({ description: 'Last change.', type: String, format: 'date-time' })
  updated_at!: string;
}
