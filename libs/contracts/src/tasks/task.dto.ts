import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CompetitionMode, MetricDirection, MetricResolutionMode, RankingMode, TaskState } from '../enums';

/** A task (competition) as public routes answer it; validator-private fields are never part of it. */
export class TaskDto {
  @ApiProperty({ type: String, description: 'Task id.' })
  id!: string;

  @ApiProperty({ type: String, description: 'Unique task key.' })
  slug!: string;

  @ApiProperty({ type: String, description: 'Human title.' })
  title!: string;

  @ApiProperty({ description: 'Task brief (Markdown).', type: String, nullable: true })
  brief!: string | null;

  @ApiProperty({ type: String, description: 'Path of the onboarding document, e.g. `/api/v1/tasks/{id}/onboard.md`.' })
  onboard_path!: string;

  @ApiProperty({ type: String, description: 'Path miners POST a task claim to.' })
  claim_path!: string;

  @ApiProperty({ type: String, description: 'Path of the best result.' })
  best_result_path!: string;

  @ApiProperty({ type: String, description: 'Public repository URL.' })
  repository!: string;

  @ApiProperty({ type: String, description: 'Pinned base ref.' })
  base_ref!: string;

  @ApiProperty({ description: 'Setup command.', type: String, nullable: true })
  setup_command!: string | null;

  @ApiProperty({ type: String, description: 'Benchmark command.' })
  benchmark_command!: string;

  @ApiProperty({ description: 'Path of the JSON result file.', type: String, nullable: true })
  result_path!: string | null;

  @ApiProperty({ description: 'Repository-relative globs a patch may touch.', type: [String] })
  allowed_patch_paths!: string[];

  @ApiProperty({ description: 'Largest accepted patch, in UTF-8 bytes.', type: 'integer' })
  max_patch_bytes!: number;

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

  @ApiProperty({ description: 'Margin a candidate must beat the best by.', type: Number })
  metric_resolution!: number;

  @ApiProperty({ description: 'How the margin is measured.', enum: MetricResolutionMode, enumName: 'MetricResolutionMode' })
  metric_resolution_mode!: MetricResolutionMode;

  @ApiPropertyOptional({ description: 'Reference model id (model tasks).', type: String, nullable: true })
  reference_model_id?: string | null;

  @ApiPropertyOptional({ description: 'Reference parameter count (model tasks).', type: 'integer', nullable: true })
  reference_parameter_count?: number | null;

  @ApiPropertyOptional({ description: 'Model family (model tasks).', type: String, nullable: true })
  model_family?: string | null;

  @ApiPropertyOptional({ description: 'Note for clients that knew the task under an older slug.', type: String, nullable: true })
  slug_compatibility_note?: string | null;

  @ApiProperty({ description: 'Competition mode.', enum: CompetitionMode, enumName: 'CompetitionMode' })
  competition_mode!: CompetitionMode;

  @ApiProperty({ description: 'Peer evaluations needed for consensus.', type: 'integer' })
  min_peer_evaluations!: number;

  @ApiProperty({ description: 'Wall-clock budget of one benchmark run, in seconds.', type: 'integer' })
  time_budget_seconds!: number;

  @ApiProperty({ description: 'Lifecycle state.', enum: TaskState, enumName: 'TaskState' })
  task_state!: TaskState;

  @ApiProperty({ type: Boolean, description: '`task_state == "live"`.' })
  is_active!: boolean;

  @ApiProperty({ description: 'Creation time.', type: String, format: 'date-time' })
  created_at!: string;
}
