import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';
import { bigintAsNumber } from '../../common/column-transformers';
import { CompetitionMode, MetricDirection, MetricResolutionMode, RankingMode, TaskState } from '@rcs/contracts';

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
export class TaskEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'tasks_pkey' })
  id!: string;

  @Column({ type: 'text' })
  slug!: string;

  @Column({ type: 'text' })
  title!: string;

  @Column({ type: 'text', nullable: true })
  brief!: string | null;

  @Column({ type: 'text', nullable: true })
  onboardMd!: string | null;

  @Column({ type: 'text' })
  repository!: string;

  @Column({ type: 'text' })
  baseRef!: string;

  /** The pinned commit when `base_ref` is a full SHA-1; validators check it out exactly. */
  @Column({ type: 'text', nullable: true })
  baseCommitSha!: string | null;

  @Column({ type: 'text', nullable: true })
  setupCommand!: string | null;

  @Column({ type: 'text' })
  benchmarkCommand!: string;

  @Column({ type: 'text', nullable: true })
  resultPath!: string | null;

  @Column({ type: 'jsonb', default: [] })
  allowedPatchPaths!: string[];

  @Column({ type: 'integer' })
  maxPatchBytes!: number;

  @Column({ type: 'text' })
  metricName!: string;

  @Column({ type: 'text' })
  metricDirection!: MetricDirection;

  @Column({ type: 'text' })
  rankingMode!: RankingMode;

  @Column({ type: 'text', nullable: true })
  secondaryMetricName!: string | null;

  @Column({ type: 'text', nullable: true })
  secondaryMetricDirection!: MetricDirection | null;

  @Column({ type: 'double precision', default: 0 })
  metricResolution!: number;

  @Column({ type: 'text', default: 'absolute' })
  metricResolutionMode!: MetricResolutionMode;

  @Column({ type: 'text', nullable: true })
  referenceModelId!: string | null;

  @Column({ type: 'bigint', nullable: true, transformer: bigintAsNumber })
  referenceParameterCount!: number | null;

  @Column({ type: 'text', nullable: true })
  modelFamily!: string | null;

  @Column({ type: 'text', nullable: true })
  slugCompatibilityNote!: string | null;

  /** Validator-private: served only through signed validator routes, never in public responses or logs. */
  @Column({ type: 'jsonb', default: {} })
  validatorBenchmarkEnv!: Record<string, string>;

  @Column({ type: 'text' })
  competitionMode!: CompetitionMode;

  @Column({ type: 'integer' })
  minPeerEvaluations!: number;

  @Column({ type: 'integer' })
  timeBudgetSeconds!: number;

  @Column({ type: 'text' })
  taskState!: TaskState;

  @Column({ type: 'timestamptz', nullable: true })
  closedAt!: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;
}
