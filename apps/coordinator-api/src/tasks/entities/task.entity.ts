import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { bigintAsNumber } from '../../common/column-transformers';
import { CompetitionMode, MetricDirection, MetricResolutionMode, RankingMode, TaskState } from '@rcs/contracts';

@Entity({ name: 'tasks' })
export class TaskEntity {
  @PrimaryGeneratedColumn('uuid')
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

  @Column({ type: 'jsonb' })
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

  @Column({ type: 'double precision' })
  metricResolution!: number;

  @Column({ type: 'text' })
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
  @Column({ type: 'jsonb' })
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
