import { ApiDateTime, ApiNumber, ApiNumberOrNull, ApiText } from '../common/api-fields';


/** Credit for an idea whose implementation became the new best (centerless, DECISIONS §6). */
export class IdeaRewardDto {
  @ApiText('Idea reward id.')
  id!: string;

  @ApiText('Task id.')
  task_id!: string;

  @ApiText('Submission that became the new best.')
  improved_submission_id!: string;

  @ApiText('Submission that proposed the idea.')
  idea_submission_id!: string;

  @ApiText('Owner of the idea submission.')
  proposer_hotkey!: string;

  @ApiText('Owner of the new best.')
  implementer_hotkey!: string;

  @ApiText('Task metric name.')
  metric_name!: string;

  @ApiNumberOrNull('Best value before; null when there was no best.')
  previous_metric_value!: number | null;

  @ApiNumber('Value of the new best.')
  improved_metric_value!: number;

  @ApiNumberOrNull('|previous − improved|; null when there was no previous best.')
  improvement_amount!: number | null;

  @ApiDateTime('Creation time.')
  created_at!: string;
}
