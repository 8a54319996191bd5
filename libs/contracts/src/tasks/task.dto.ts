import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CompetitionMode, MetricResolutionMode, TaskState } from '../enums';
import { TaskHardwareDto } from './task-hardware.dto';
import { HeldoutBudgetViewDto, TaskExposureDto } from './heldout-budget.dto';
import { MetricFieldsAfter, TaskMetricFieldsDto } from './task-metric-fields.dto';
import { ApiBoolean, ApiDateTime, ApiEnum, ApiInteger, ApiIntegerOrNull, ApiNumber, ApiText, ApiTextOrNull } from '../common/api-fields';

/** A task (competition) as public routes answer it; validator-private fields are never part of it. */
@MetricFieldsAfter('max_patch_bytes')
export class TaskDto extends TaskMetricFieldsDto {
  @ApiText('Task id.')
  id!: string;

  @ApiText('Unique task key.')
  slug!: string;

  @ApiText('Human title.')
  title!: string;

  @ApiTextOrNull('Task brief (Markdown).')
  brief!: string | null;

  @ApiText('Path of the onboarding document, e.g. `/api/v1/tasks/{id}/onboard.md`.')
  onboard_path!: string;

  @ApiText('Path miners POST a task claim to.')
  claim_path!: string;

  @ApiText('Path of the best result.')
  best_result_path!: string;

  @ApiText('Public repository URL.')
  repository!: string;

  @ApiText('Pinned base ref.')
  base_ref!: string;

  @ApiTextOrNull('Setup command.')
  setup_command!: string | null;

  @ApiText('Benchmark command.')
  benchmark_command!: string;

  @ApiTextOrNull('Path of the JSON result file.')
  result_path!: string | null;

  @ApiProperty({ description: 'Repository-relative globs a patch may touch.', type: [String] })
  allowed_patch_paths!: string[];

  @ApiInteger('Largest accepted patch, in UTF-8 bytes.')
  max_patch_bytes!: number;

  @ApiNumber('Margin a candidate must beat the best by.')
  metric_resolution!: number;

  @ApiEnum(MetricResolutionMode, 'How the margin is measured.')
  metric_resolution_mode!: MetricResolutionMode;

  @ApiPropertyOptional({ description: 'Reference model id (model tasks).', type: String, nullable: true })
  reference_model_id?: string | null;

  @ApiPropertyOptional({ description: 'Reference parameter count (model tasks).', type: 'integer', nullable: true })
  reference_parameter_count?: number | null;

  @ApiPropertyOptional({ description: 'Model family (model tasks).', type: String, nullable: true })
  model_family?: string | null;

  @ApiPropertyOptional({ description: 'Note for clients that knew the task under an older slug.', type: String, nullable: true })
  slug_compatibility_note?: string | null;

  @ApiProperty({ description: 'Hardware a validator needs to replay the task (our extension); null when the task states none.', type: () => TaskHardwareDto, nullable: true })
  hardware!: TaskHardwareDto | null;

  @ApiEnum(CompetitionMode, 'Competition mode.')
  competition_mode!: CompetitionMode;

  @ApiInteger('Peer evaluations needed for consensus.')
  min_peer_evaluations!: number;

  @ApiInteger('Wall-clock budget of one benchmark run, in seconds.')
  time_budget_seconds!: number;

  @ApiIntegerOrNull('Length of one held-out rotation slot, in seconds; null: one payout window.')
  heldout_rotation_seconds!: number | null;

  @ApiProperty({ description: 'Held-out exposure budget (DECISIONS §17); null: exact release.', type: () => HeldoutBudgetViewDto, nullable: true })
  heldout_budget!: HeldoutBudgetViewDto | null;

  @ApiProperty({ description: "What the active held-out shard has released; null when the task has no budget.", type: () => TaskExposureDto, nullable: true })
  exposure!: TaskExposureDto | null;

  @ApiEnum(TaskState, 'Lifecycle state.')
  task_state!: TaskState;

  @ApiBoolean('`task_state == "live"`.')
  is_active!: boolean;

  @ApiDateTime('Creation time.')
  created_at!: string;
}
