import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsEnum, IsInt, IsNumber, IsObject, IsOptional, Max, Min, ValidateNested } from 'class-validator';
import { CompetitionMode, MetricDirection, MetricResolutionMode, RankingMode } from '../enums';
import { IsRepoGlob, IsStringRecord, MaxProperties, REPO_GLOB_MAX_LENGTH } from '../common/validators';
import { ApiEnum } from '../common/api-fields';
import { BoundedText, EnumOrDefault, OptionalCount, OptionalText } from '../common/request-fields';
import { TaskHardwareDto } from './task-hardware.dto';
import { HeldoutBudgetDto } from './heldout-budget.dto';

/** The longest held-out rotation slot: a year. */
export const MAX_HELDOUT_ROTATION_SECONDS = 31_536_000;

export const MAX_PATCH_BYTES_LIMIT = 1_048_576;
export const DEFAULT_MAX_PATCH_BYTES = 262_144;
export const MAX_TIME_BUDGET_SECONDS = 86_400;

/** Body of `POST /api/v1/tasks` (admin): the spec's create-task table plus DECISIONS §3. */
export class CreateTaskDto {
  @BoundedText('Unique, stable task key (used in URLs and reward-policy overrides).', 3, 120)
  slug!: string;

  @BoundedText('Human title.', 3, 255)
  title!: string;

  @OptionalText('Task brief (Markdown).', 20000)
  brief: string | null = null;

  @OptionalText('Markdown used as the brief part of onboard.md instead of the generated one.', 40000)
  onboard_md: string | null = null;

  @BoundedText('Public repository URL the benchmark is run from.', 1)
  repository!: string;

  @BoundedText('Pinned base ref (branch, tag or commit) patches apply to.', 1, 255)
  base_ref!: string;

  @OptionalText('Command run once before the benchmark.')
  setup_command: string | null = null;

  @BoundedText('Command that runs the benchmark and writes the result file.', 1)
  benchmark_command!: string;

  @OptionalText('Path of the JSON result file the benchmark writes.', 1000)
  result_path: string | null = null;

  @ApiPropertyOptional({
    description:
      'Repository-relative glob patterns a patch may touch (`*` within a segment, `**` across segments, `?`); no leading `/`, no `..`, no backslash.',
    type: [String],
    maxItems: 64,
    default: [],
    items: { type: 'string', minLength: 1, maxLength: REPO_GLOB_MAX_LENGTH },
  })
  @IsArray()
  @ArrayMaxSize(64)
  @IsRepoGlob({ each: true })
  allowed_patch_paths: string[] = [];

  @ApiPropertyOptional({ description: 'Largest accepted patch, in UTF-8 bytes.', type: 'integer', minimum: 1, maximum: MAX_PATCH_BYTES_LIMIT, default: DEFAULT_MAX_PATCH_BYTES })
  @IsInt()
  @Min(1)
  @Max(MAX_PATCH_BYTES_LIMIT)
  max_patch_bytes: number = DEFAULT_MAX_PATCH_BYTES;

  @BoundedText('Primary metric key in the result file.', 1, 120)
  metric_name!: string;

  @ApiEnum(MetricDirection, 'Whether a larger or a smaller primary metric is better.')
  @IsEnum(MetricDirection)
  metric_direction!: MetricDirection;

  @EnumOrDefault(RankingMode, RankingMode.Scalar, 'How candidates are compared with the best result.')
  ranking_mode: RankingMode = RankingMode.Scalar;

  @OptionalText('Secondary metric key (tie-break or second Pareto axis).', 120)
  secondary_metric_name: string | null = null;

  @ApiPropertyOptional({ description: 'Direction of the secondary metric.', enum: MetricDirection, enumName: 'MetricDirection', nullable: true, default: null })
  @IsOptional()
  @IsEnum(MetricDirection)
  secondary_metric_direction: MetricDirection | null = null;

  @ApiPropertyOptional({
    description: 'Validator-private benchmark environment (held-out selectors, dataset mix). Never shown in public responses.',
    type: 'object',
    additionalProperties: { type: 'string' },
    maxProperties: 64,
    default: {},
  })
  @IsStringRecord()
  @MaxProperties(64)
  validator_benchmark_env: Record<string, string> = {};

  @EnumOrDefault(CompetitionMode, CompetitionMode.Centerless, 'Competition rules of the task.')
  competition_mode: CompetitionMode = CompetitionMode.Centerless;

  @ApiPropertyOptional({ description: 'Peer evaluations needed for consensus (peer_evaluation tasks).', type: 'integer', minimum: 1, maximum: 20, default: 2 })
  @IsInt()
  @Min(1)
  @Max(20)
  min_peer_evaluations = 2;

  @ApiProperty({ description: 'Wall-clock budget of one benchmark run, in seconds.', type: 'integer', minimum: 1, maximum: MAX_TIME_BUDGET_SECONDS })
  @IsInt()
  @Min(1)
  @Max(MAX_TIME_BUDGET_SECONDS)
  time_budget_seconds!: number;

  @ApiPropertyOptional({
    description: 'Length of one held-out rotation slot, in seconds (DECISIONS §15); null: one payout window (POOL_WINDOW_BLOCKS × 12 s).',
    type: 'integer',
    nullable: true,
    minimum: 1,
    maximum: MAX_HELDOUT_ROTATION_SECONDS,
    default: null,
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_HELDOUT_ROTATION_SECONDS)
  heldout_rotation_seconds: number | null = null;

  @ApiPropertyOptional({
    description: 'Margin a candidate must beat the best by (DECISIONS §3); 0 keeps the plain rule.',
    type: Number,
    minimum: 0,
    default: 0,
  })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  metric_resolution = 0;

  @EnumOrDefault(MetricResolutionMode, MetricResolutionMode.Absolute, '`absolute`: plain difference; `log`: difference of natural logs (the 0.02-nat perplexity rule).')
  metric_resolution_mode: MetricResolutionMode = MetricResolutionMode.Absolute;

  @OptionalText('Reference model id (model tasks).', 255)
  reference_model_id: string | null = null;

  @OptionalCount('Parameter count of the reference model (model tasks).')
  reference_parameter_count: number | null = null;

  @OptionalText('Model family (model tasks).', 120)
  model_family: string | null = null;

  @OptionalText('Note for clients that knew the task under an older slug.', 2000)
  slug_compatibility_note: string | null = null;

  @ApiPropertyOptional({
    description: 'Hardware a validator needs to replay the task (our extension); null: not stated, any validator (CPU only included) may replay it.',
    type: () => TaskHardwareDto,
    nullable: true,
    default: null,
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => TaskHardwareDto)
  hardware: TaskHardwareDto | null = null;

  @ApiPropertyOptional({
    description: 'Held-out exposure budget (DECISIONS §17): results are released on a step grid, and only while the shard has bits left; null: exact release.',
    type: () => HeldoutBudgetDto,
    nullable: true,
    default: null,
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => HeldoutBudgetDto)
  heldout_budget: HeldoutBudgetDto | null = null;
}
