import { ApiProperty } from '@nestjs/swagger';
import { MetricDirection, RankingMode } from '../enums';
import { ApiEnum, ApiEnumOrNull, ApiInteger, ApiIntegerOrNull, ApiText, ApiTextOrNull } from '../common/api-fields';

/** Everything a validator needs to replay one submission (DECISIONS §6, compat); includes validator-private fields. */
export class ReplaySpecDto {
  @ApiText('Repository URL.')
  repository!: string;

  @ApiText('Base ref the patch applies to.')
  base_ref!: string;

  @ApiTextOrNull('Commit the base ref resolved to, when known.')
  base_commit_sha!: string | null;

  @ApiTextOrNull('Setup command.')
  setup_command!: string | null;

  @ApiText('Benchmark command.')
  benchmark_command!: string;

  @ApiTextOrNull('JSON result file path.')
  result_path!: string | null;

  @ApiProperty({ description: 'Globs the patch may touch.', type: [String] })
  allowed_patch_paths!: string[];

  @ApiText('Primary metric key.')
  metric_name!: string;

  @ApiEnum(MetricDirection, 'Direction of the primary metric.')
  metric_direction!: MetricDirection;

  @ApiEnum(RankingMode, 'Ranking mode.')
  ranking_mode!: RankingMode;

  @ApiTextOrNull('Secondary metric key.')
  secondary_metric_name!: string | null;

  @ApiEnumOrNull(MetricDirection, 'Direction of the secondary metric.')
  secondary_metric_direction!: MetricDirection | null;

  @ApiProperty({ description: 'Validator-private benchmark environment.', type: 'object', additionalProperties: { type: 'string' } })
  validator_benchmark_env!: Record<string, string>;

  @ApiInteger('Wall-clock budget in seconds.')
  time_budget_seconds!: number;

  @ApiInteger('Largest accepted patch, in UTF-8 bytes.')
  max_patch_bytes!: number;

  @ApiText('Unified git diff to apply (may be empty).')
  patch!: string;

  @ApiTextOrNull('Artifact to download.')
  artifact_uri!: string | null;

  @ApiTextOrNull('Expected SHA-256 of the artifact.')
  artifact_sha256!: string | null;

  @ApiIntegerOrNull('Expected artifact size in bytes.')
  artifact_size_bytes!: number | null;
}
