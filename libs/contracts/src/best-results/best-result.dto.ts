import { MetricDirection } from '../enums';
import { ApiDateTime, ApiEnum, ApiNumber, ApiText, ApiTextOrNull } from '../common/api-fields';

/** `GET /api/v1/tasks/{task_id}/best`: the task's current best accepted result. */
export class BestResultDto {
  @ApiText('Task id.')
  task_id!: string;

  @ApiText('Submission holding the best result.')
  submission_id!: string;

  @ApiText('Primary metric key.')
  metric_name!: string;

  @ApiEnum(MetricDirection, 'Direction of the primary metric.')
  metric_direction!: MetricDirection;

  @ApiTextOrNull('Unit of the metric, when known.')
  metric_unit!: string | null;

  @ApiNumber('Verified metric value.')
  metric_value!: number;

  @ApiText('Hotkey of the miner holding the best.')
  miner_hotkey!: string;

  @ApiDateTime('When this result became the best.')
  updated_at!: string;
}
