import { ApiDateTime, ApiNumber, ApiNumberOrNull, ApiText, ApiTextOrNull } from '../common/api-fields';


/** `GET /api/v1/tasks/{task_id}/best/history`: one change of a task's best (charts and audit, DECISIONS §3). */
export class BestResultChangeDto {
  @ApiText('Task id.')
  task_id!: string;

  @ApiText('Submission that became the best.')
  submission_id!: string;

  @ApiText('Hotkey of the miner of that submission.')
  miner_hotkey!: string;

  @ApiNumber('Its verified primary metric value.')
  metric_value!: number;

  @ApiNumberOrNull('Its verified secondary metric value; null when the task has none or the result lacked it.')
  secondary_metric_value!: number | null;

  @ApiTextOrNull('Submission it replaced; null for the first best.')
  previous_submission_id!: string | null;

  @ApiNumberOrNull('Primary metric value it replaced; null for the first best.')
  previous_metric_value!: number | null;

  @ApiDateTime('When the change happened.')
  changed_at!: string;
}
