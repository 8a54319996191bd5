import { ReleaseState, SubmissionStatus } from '../enums';
import { ApiDateTime, ApiEnum, ApiEnumOrNull, ApiIntegerOrNull, ApiJsonObject, ApiText, ApiTextOrNull } from '../common/api-fields';

/** A submission as signed routes answer it. */
export class SubmissionDto {
  @ApiText('Submission id.')
  id!: string;

  @ApiText('Task id.')
  task_id!: string;

  @ApiText('Claim the submission used.')
  claim_id!: string;

  @ApiText('Hotkey of the submitting miner.')
  miner_hotkey!: string;

  @ApiText('Base ref the patch applies to.')
  base_ref!: string;

  @ApiText('Unified git diff (may be empty).')
  patch!: string;

  @ApiText('What changed and why.')
  summary!: string;

  @ApiTextOrNull('Idea proposed for later miners.')
  proposed_idea!: string | null;

  @ApiTextOrNull('Submission whose idea this implements.')
  implemented_submission_id!: string | null;

  @ApiTextOrNull('Artifact URI.')
  artifact_uri!: string | null;

  @ApiTextOrNull('Lowercase SHA-256 of the artifact.')
  artifact_sha256!: string | null;

  @ApiIntegerOrNull('Artifact size in bytes.')
  artifact_size_bytes!: number | null;

  @ApiTextOrNull("The miner's own benchmark log.")
  execution_log!: string | null;

  @ApiJsonObject('Metrics the miner claimed.')
  claimed_metrics!: Record<string, unknown>;

  @ApiEnum(SubmissionStatus, 'Submission status.')
  status!: SubmissionStatus;

  @ApiEnumOrNull(ReleaseState, 'Under a held-out budget (DECISIONS §17), what an accepted result released: `improved`, `not_significant` (the public keeps the previous best) or `held_for_rotation` (the shard is spent); null otherwise.')
  release!: ReleaseState | null;

  @ApiDateTime('Creation time.')
  created_at!: string;

  @ApiDateTime('Last change.')
  updated_at!: string;
}
