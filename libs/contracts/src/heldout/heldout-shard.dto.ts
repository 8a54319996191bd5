import { ApiProperty } from '@nestjs/swagger';
import { ReleaseState } from '../enums';
import { ApiDateTime, ApiEnumOrNull, ApiInteger, ApiJsonObject, ApiNumberOrNull, ApiText, ApiTextOrNull } from '../common/api-fields';

/**
 * The header naming an uploaded shard (`POST /api/v1/tasks/{task_id}/heldout`, whose body is the raw bytes):
 * a header, not a query parameter, because request logs carry the URL and a shard's name stays out of logs.
 */
export const HELDOUT_NAME_HEADER = 'x-heldout-name';
/** What a shard name may be: a file-name-like label of 1..128 characters, no path separators. */
export const HELDOUT_SHARD_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** One held-out shard of a task (admin only; never in a public answer, event or log). */
export class HeldoutShardDto {
  @ApiText('Task id.')
  task_id!: string;

  @ApiText('Lowercase hex SHA-256 of the bytes: the shard\'s identity and its file name in HELDOUT_STORE_DIR.')
  sha256!: string;

  @ApiText('Shard name given at the first upload of these bytes to this task.')
  name!: string;

  @ApiInteger('Size in bytes.')
  bytes!: number;

  @ApiDateTime('When it was first uploaded to this task.')
  created_at!: string;
}

/** Which held-out shard a verification's replay used (admin only), so a decision can be audited. */
export class HeldoutVerificationDto {
  @ApiText('Verification id.')
  verification_id!: string;

  @ApiText('Validator job id.')
  job_id!: string;

  @ApiText('Submission id.')
  submission_id!: string;

  @ApiText('Validator that replayed it.')
  validator_hotkey!: string;

  @ApiText('Verdict.')
  status!: string;

  @ApiTextOrNull('SHA-256 of the shard the job was given; null when the task names no coordinator shard.')
  heldout_sha256!: string | null;

  @ApiTextOrNull('Name of that shard, while the task still holds it.')
  heldout_name!: string | null;

  @ApiNumberOrNull('Raw observed value of the task metric, when the replay produced one; under a held-out budget the public sees it only once its shard retires (DECISIONS §17).')
  metric_value!: number | null;

  @ApiJsonObject('Raw metrics the replay produced.')
  observed_metrics!: Record<string, unknown>;

  @ApiEnumOrNull(ReleaseState, 'Under a held-out budget, what this result released (`improved`, `not_significant`, `held_for_rotation`); null otherwise.')
  release!: ReleaseState | null;

  @ApiNumberOrNull('Under a held-out budget, the value the public sees for it (the released best R when it released nothing); null otherwise.')
  released_metric_value!: number | null;

  @ApiProperty({ type: Boolean, description: 'Whether the public still sees only the released value: its shard is in use.' })
  metric_withheld!: boolean;

  @ApiDateTime('When the verification was recorded.')
  created_at!: string;
}

/** `DELETE /api/v1/tasks/{task_id}/heldout/{sha256}`: what was removed. */
export class HeldoutDeletedDto {
  @ApiProperty({ type: Boolean, description: 'Always true.' })
  deleted!: true;

  @ApiText('SHA-256 of the removed shard.')
  sha256!: string;

  @ApiProperty({ type: Boolean, description: 'Whether the file left HELDOUT_STORE_DIR (false while another task still holds the same bytes).' })
  file_removed!: boolean;
}
