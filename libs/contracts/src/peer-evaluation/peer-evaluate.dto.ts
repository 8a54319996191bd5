import { VerificationStatus } from '../enums';
import { MetricsField, OptionalText, VerdictField } from '../common/request-fields';

/** Body of `POST /api/v1/submissions/{id}/peer-evaluate` (signed, peer_evaluation tasks). */
export class PeerEvaluateDto {
  @VerdictField("The evaluator's verdict.")
  status!: VerificationStatus;

  @MetricsField('Metrics the evaluator observed (names of 1..120 characters, finite numbers); `accepted` needs the task metric.')
  observed_metrics: Record<string, unknown> = {};

  @OptionalText('Free-form notes.')
  notes: string | null = null;
}
