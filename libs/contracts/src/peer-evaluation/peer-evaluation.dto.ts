import { ApiProperty } from '@nestjs/swagger';
import { VerificationStatus } from '../enums';
import { ApiDateTime, ApiDateTimeOrNull, ApiEnum, ApiText, ApiTextOrNull } from '../common/api-fields';

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

  @ApiProperty({ description: 'Metrics the evaluator observed.', type: 'object', additionalProperties: true })
  observed_metrics!: Record<string, unknown>;

  @ApiTextOrNull('Free-form notes.')
  notes!: string | null;

  @ApiDateTime('Creation time.')
  created_at!: string;

  @ApiDateTimeOrNull('When the evaluation was completed.')
  completed_at!: string | null;
}
