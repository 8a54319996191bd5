import { VerificationStatus } from '../enums';
import { ApiDateTime, ApiEnum, ApiJsonObject, ApiNumberOrNull, ApiText, ApiTextOrNull } from '../common/api-fields';

/** A recorded validator result (DECISIONS §6); also the answer of verify and job result. */
export class VerificationSummaryDto {
  @ApiText('Verification id.')
  id!: string;

  @ApiText('Verified submission.')
  submission_id!: string;

  @ApiText('Validator job the result completed.')
  job_id!: string;

  @ApiText('Task id.')
  task_id!: string;

  @ApiText('Hotkey of the validator.')
  validator_hotkey!: string;

  @ApiEnum(VerificationStatus, 'Verdict.')
  status!: VerificationStatus;

  @ApiText('Task metric name.')
  metric_name!: string;

  @ApiNumberOrNull('Observed value of the task metric, when the replay produced one.')
  metric_value!: number | null;

  @ApiJsonObject('Metrics the replay produced.')
  observed_metrics!: Record<string, unknown>;

  @ApiTextOrNull('Validator notes.')
  notes!: string | null;

  @ApiDateTime('Creation time.')
  created_at!: string;
}
