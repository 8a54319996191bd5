import { SubmissionStatus } from '../enums';
import { PageQueryDto } from '../common/page-query.dto';
import { ApiDateTime, ApiEnum, ApiText } from '../common/api-fields';

/**
 * An idea proposed on a task (centerless): a non-rejected submission with a non-blank `proposed_idea`. Another
 * miner implements it by naming `submission_id` as `implemented_submission_id`.
 */
export class TaskIdeaDto {
  @ApiText('The submission that proposed the idea: the implemented_submission_id of an implementation.')
  submission_id!: string;

  @ApiText('Task id.')
  task_id!: string;

  @ApiText('Hotkey of the miner who proposed it (a miner cannot implement its own idea).')
  miner_hotkey!: string;

  @ApiText('The idea as proposed.')
  proposed_idea!: string;

  @ApiEnum(SubmissionStatus, 'Status of the proposing submission (never rejected).')
  status!: SubmissionStatus;

  @ApiDateTime('When it was proposed.')
  created_at!: string;
}

/** Query of `GET /api/v1/tasks/{task_id}/ideas`: newest first, paged like the other lists. */
export class TaskIdeaQueryDto extends PageQueryDto {}
