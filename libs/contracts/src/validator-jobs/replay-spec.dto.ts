import { ApiProperty } from '@nestjs/swagger';
import { MetricDirection, RankingMode } from '../enums';

/** Everything a validator needs to replay one submission (DECISIONS §6, compat); includes validator-private fields. */
export class ReplaySpecDto {
  @ApiProperty({ type: String, description: 'Repository URL.' })
  repository!: string;

  @ApiProperty({ type: String, description: 'Base ref the patch applies to.' })
  base_ref!: string;

  @ApiProperty({ description: 'Commit the base ref resolved to, when known.', type: String, nullable: true })
  base_commit_sha!: string | null;

  @ApiProperty({ description: 'Setup command.', type: String, nullable: true })
  setup_command!: string | null;

  @ApiProperty({ type: String, description: 'Benchmark command.' })
  benchmark_command!: string;

  @ApiProperty({ description: 'JSON result file path.', type: String, nullable: true })
  result_path!: string | null;

  @ApiProperty({ description: 'Globs the patch may touch.', type: [String] })
  allowed_patch_paths!: string[];

  @ApiProperty({ type: String, description: 'Primary metric key.' })
  metric_name!: string;

  @ApiProperty({ description: 'Direction of the primary metric.', enum: MetricDirection, enumName: 'MetricDirection' })
  metric_direction!: MetricDirection;

  @ApiProperty({ description: 'Ranking mode.', enum: RankingMode, enumName: 'RankingMode' })
  ranking_mode!: RankingMode;

  @ApiProperty({ description: 'Secondary metric key.', type: String, nullable: true })
  secondary_metric_name!: string | null;

  @ApiProperty({ description: 'Direction of the secondary metric.', enum: MetricDirection, enumName: 'MetricDirection', nullable: true })
  secondary_metric_direction!: MetricDirection | null;

  @ApiProperty({ description: 'Validator-private benchmark environment.', type: 'object', additionalProperties: { type: 'string' } })
  validator_benchmark_env!: Record<string, string>;

  @ApiProperty({ description: 'Wall-clock budget in seconds.', type: 'integer' })
  time_budget_seconds!: number;

  @ApiProperty({ description: 'Largest accepted patch, in UTF-8 bytes.', type: 'integer' })
  max_patch_bytes!: number;

  @ApiProperty({ type: String, description: 'Unified git diff to apply (may be empty).' })
  patch!: string;

  @ApiProperty({ description: 'Artifact to download.', type: String, nullable: true })
  artifact_uri!: string | null;

  @ApiProperty({ description: 'Expected SHA-256 of the artifact.', type: String, nullable: true })
  artifact_sha256!: string | null;

  @ApiProperty({ description: 'Expected artifact size in bytes.', type: 'integer', nullable: true })
  artifact_size_bytes!: number | null;
}
