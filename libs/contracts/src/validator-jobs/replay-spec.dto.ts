import { ApiProperty } from '@nestjs/swagger';
import { ApiInteger, ApiIntegerOrNull, ApiText, ApiTextOrNull } from '../common/api-fields';
import { MetricFieldsAfter, TaskMetricFieldsDto } from '../tasks/task-metric-fields.dto';

/** Everything a validator needs to replay one submission (DECISIONS §6, compat); includes validator-private fields. */
@MetricFieldsAfter('allowed_patch_paths')
export class ReplaySpecDto extends TaskMetricFieldsDto {
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
