import { Check, Column, Entity, Index, Unique } from 'typeorm';
import { CreatedAt, DoubleColumn, IntegerColumn, JsonbColumn, nullable, TextColumn, TimestampColumn, UpdatedAt, UuidPrimaryKey } from '@rcs/persistence';
import { bigintAsNumber } from '../../common/column-transformers';
import { CompetitionMode, MetricDirection, MetricResolutionMode, RankingMode, TaskState } from '@rcs/contracts';

/** A task's stored budget: `step` null means the task's `metric_resolution`, `bits` null a budget derived per shard. */
export interface HeldoutBudget {
  enabled: boolean;
  step: number | null;
  bits: number | null;
  delta: number;
}

/** A task states both hardware columns or neither; each within the bounds of TaskHardwareDto. */
export const TASK_HARDWARE_CHECK =
  '(hardware_gpu_count IS NULL AND hardware_gpu_memory_gb IS NULL) OR ' +
  '(hardware_gpu_count BETWEEN 0 AND 64 AND hardware_gpu_memory_gb BETWEEN 0 AND 4096)';

/** Constraint and index names are those of the migrations (Postgres names inline CHECKs `<table>_<column>_check`). */
@Entity({ name: 'tasks' })
@Unique('tasks_slug_unique', ['slug'])
@Index('tasks_created_idx', ['createdAt', 'id']) // (created_at DESC, id DESC)
@Check('tasks_max_patch_bytes_check', 'max_patch_bytes BETWEEN 1 AND 1048576')
@Check('tasks_metric_direction_check', "metric_direction IN ('maximize', 'minimize')")
@Check('tasks_ranking_mode_check', "ranking_mode IN ('scalar', 'pareto')")
@Check('tasks_secondary_metric_direction_check', "secondary_metric_direction IN ('maximize', 'minimize')")
@Check('tasks_metric_resolution_check', 'metric_resolution >= 0')
@Check('tasks_metric_resolution_mode_check', "metric_resolution_mode IN ('absolute', 'log')")
@Check('tasks_competition_mode_check', "competition_mode IN ('standard', 'centerless', 'peer_evaluation')")
@Check('tasks_min_peer_evaluations_check', 'min_peer_evaluations BETWEEN 1 AND 20')
@Check('tasks_time_budget_seconds_check', 'time_budget_seconds BETWEEN 1 AND 86400')
@Check('tasks_task_state_check', "task_state IN ('live', 'paused', 'closed')")
@Check('tasks_hardware_check', TASK_HARDWARE_CHECK)
@Check('tasks_heldout_rotation_seconds_check', 'heldout_rotation_seconds BETWEEN 1 AND 31536000')
export class TaskEntity {
  @UuidPrimaryKey('tasks_pkey')
  id!: string;

  @TextColumn()
  slug!: string;

  @TextColumn()
  title!: string;

  @TextColumn(nullable)
  brief!: string | null;

  @TextColumn(nullable)
  onboardMd!: string | null;

  @TextColumn()
  repository!: string;

  @TextColumn()
  baseRef!: string;

  /** The pinned commit when `base_ref` is a full SHA-1; validators check it out exactly. */
  @TextColumn(nullable)
  baseCommitSha!: string | null;

  @TextColumn(nullable)
  setupCommand!: string | null;

  @TextColumn()
  benchmarkCommand!: string;

  @TextColumn(nullable)
  resultPath!: string | null;

  @JsonbColumn({ default: [] })
  allowedPatchPaths!: string[];

  @IntegerColumn()
  maxPatchBytes!: number;

  @TextColumn()
  metricName!: string;

  @TextColumn()
  metricDirection!: MetricDirection;

  @TextColumn()
  rankingMode!: RankingMode;

  @TextColumn(nullable)
  secondaryMetricName!: string | null;

  @TextColumn(nullable)
  secondaryMetricDirection!: MetricDirection | null;

  @DoubleColumn({ default: 0 })
  metricResolution!: number;

  @TextColumn({ default: 'absolute' })
  metricResolutionMode!: MetricResolutionMode;

  @TextColumn(nullable)
  referenceModelId!: string | null;

  @Column({ type: 'bigint', nullable: true, transformer: bigintAsNumber })
  referenceParameterCount!: number | null;

  @TextColumn(nullable)
  modelFamily!: string | null;

  @TextColumn(nullable)
  slugCompatibilityNote!: string | null;

  /** GPUs a validator needs (our extension); null with hardwareGpuMemoryGb when the task states no hardware. */
  @IntegerColumn(nullable)
  hardwareGpuCount!: number | null;

  /** Memory each of those GPUs needs, in GB (10^9 bytes). */
  @DoubleColumn(nullable)
  hardwareGpuMemoryGb!: number | null;

  /** Validator-private: served only through signed validator routes, never in public responses or logs. */
  @JsonbColumn({ default: {} })
  validatorBenchmarkEnv!: Record<string, string>;

  @TextColumn()
  competitionMode!: CompetitionMode;

  @IntegerColumn()
  minPeerEvaluations!: number;

  @IntegerColumn()
  timeBudgetSeconds!: number;

  /** How long one held-out rotation slot lasts (DECISIONS §15); null: one payout window. */
  @IntegerColumn(nullable)
  heldoutRotationSeconds!: number | null;

  /** The held-out exposure budget (DECISIONS §17); null: exact release. */
  @JsonbColumn(nullable)
  heldoutBudget!: HeldoutBudget | null;

  @TextColumn()
  taskState!: TaskState;

  @TimestampColumn(nullable)
  closedAt!: Date | null;

  @CreatedAt()
  createdAt!: Date;

  @UpdatedAt()
  updatedAt!: Date;
}
