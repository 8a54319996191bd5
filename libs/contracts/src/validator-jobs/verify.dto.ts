import { VerificationStatus } from '../enums';
import { MetricsField, OptionalText, PerItemField, VerdictField } from '../common/request-fields';

/** Body of `POST /api/v1/submissions/{id}/verify` (allowlisted validator): an observed replay result. */
export class VerifyDto {
  @VerdictField('Replay verdict; never `accepted` on the strength of claimed metrics.')
  status!: VerificationStatus;

  @MetricsField('Metrics the replay produced (names of 1..120 characters, finite numbers); `accepted` needs the task metric.')
  observed_metrics: Record<string, unknown> = {};

  @PerItemField(
    "The task metric per held-out item (a benchmark's `per_item` in result.json), at most 20,000: under a held-out budget the " +
      "release rule uses the paired spread against the leader (DECISIONS §17). Never shown to the public.",
  )
  per_item: number[] | null = null;

  @OptionalText('Free-form notes (why a replay failed, for instance).')
  notes: string | null = null;

  @OptionalText('Replay log; stored and served only to admins.')
  replay_log: string | null = null;
}
