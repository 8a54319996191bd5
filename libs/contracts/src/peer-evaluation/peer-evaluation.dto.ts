import { VerificationStatus } from '../enums';
import { ApiDateTime, ApiDateTimeOrNull, ApiEnum, ApiJsonObject, ApiText, ApiTextOrNull } from '../common/api-fields';

/** One miner's evaluation of another miner's submission. */
export class PeerEvaluationDto {
  @ApiText('Evaluation id.')
  id!: string;

  @ApiText('Evaluated submission.')
  submission_id!: string;

  @ApiText('Hotkey of the evaluating miner.')
  evaluator_hotkey!: string;

  @ApiEnum(VerificationStatus, 'Verdict.')
  status!: VerificationStatus;

  @ApiJsonObject('Metrics the evaluator observed.')
  observed_metrics!: Record<string, unknown>;

  @ApiTextOrNull('Free-form notes.')
  notes!: string | null;

  @ApiDateTime('Creation time.')
  created_at!: string;

  @ApiDateTimeOrNull('When the evaluation was completed.')
  completed_at!: string | null;
}
