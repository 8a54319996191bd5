import { WorkItemSource, WorkItemStatus } from '../enums';
import { ApiDateTime, ApiEnum, ApiInteger, ApiText, ApiTextOrNull } from '../common/api-fields';

/** A planned unit of work on a task (DECISIONS §4). */
export class WorkItemDto {
  @ApiText('Work item id.')
  id!: string;

  @ApiText('Task id.')
  task_id!: string;

  @ApiText('Short title.')
  title!: string;

  @ApiText('What to do (Markdown).')
  description!: string;

  @ApiInteger('Higher runs first.')
  priority!: number;

  @ApiEnum(WorkItemStatus, 'Work item status.')
  status!: WorkItemStatus;

  @ApiEnum(WorkItemSource, 'Who created the item.')
  source!: WorkItemSource;

  @ApiTextOrNull('Submission whose idea this item implements (centerless).')
  idea_submission_id!: string | null;

  @ApiTextOrNull('Submission this item improves on (e.g. the current best).')
  parent_submission_id!: string | null;

  @ApiTextOrNull('Claim holding the item while `claimed`.')
  claim_id!: string | null;

  @ApiTextOrNull('Submission that completed the item.')
  completed_submission_id!: string | null;

  @ApiDateTime('Creation time.')
  created_at!: string;

  @ApiDateTime('Last change.')
  updated_at!: string;
}
