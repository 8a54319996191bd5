import { Check, Column, Entity, Index, Unique } from 'typeorm';
import { CreatedAt, DoubleColumn, ForeignKeyColumn, JsonbColumn, nullable, TextColumn, UuidPrimaryKey } from '@rcs/persistence';
import { ReleaseState, VerificationStatus } from '@rcs/contracts';
import { HeldoutExposureEntity } from '../../exposure/entities/heldout-exposure.entity';
import { SubmissionEntity } from '../../submissions/entities/submission.entity';
import { TaskEntity } from '../../tasks/entities/task.entity';
import { ValidatorJobEntity } from './validator-job.entity';

/** What a validator observed for a submission (job result or manual verify); decides the submission. */
@Entity({ name: 'verifications' })
@Unique('verifications_one_per_job_unique', ['jobId'])
@Index('verifications_submission_idx', ['submissionId', 'createdAt']) // (submission_id, created_at DESC)
@Index('verifications_created_idx', ['createdAt', 'id']) // (created_at DESC, id DESC)
@Check('verifications_status_check', "status IN ('accepted', 'rejected', 'error')")
@Check('verifications_release_check', "release IN ('improved', 'not_significant', 'held_for_rotation')")
@Index('verifications_exposure_idx', ['exposureId'], { where: 'exposure_id IS NOT NULL' })
export class VerificationEntity {
  @UuidPrimaryKey('verifications_pkey')
  id!: string;

  @ForeignKeyColumn(() => SubmissionEntity, 'verifications_submission_id_fkey')
  submissionId!: string;

  @ForeignKeyColumn(() => ValidatorJobEntity, 'verifications_job_id_fkey')
  jobId!: string;

  @ForeignKeyColumn(() => TaskEntity, 'verifications_task_id_fkey')
  taskId!: string;

  /** The allowlisted validator, or `coordinator` when the coordinator itself gave up on a job. */
  @TextColumn()
  validatorHotkey!: string;

  @TextColumn()
  status!: VerificationStatus;

  @TextColumn()
  metricName!: string;

  @DoubleColumn(nullable)
  metricValue!: number | null;

  @JsonbColumn({ default: {} })
  observedMetrics!: Record<string, unknown>;

  @TextColumn(nullable)
  notes!: string | null;

  /** Served only by the admin replay.log route. */
  @TextColumn(nullable)
  replayLog!: string | null;

  /** SHA-256 of the held-out shard the replay used (copied from the job); admin-only, like the log. */
  @TextColumn(nullable)
  heldoutSha256!: string | null;

  /** Under a held-out budget: what the result released, and the value the public sees (DECISIONS §17). */
  @TextColumn(nullable)
  release!: ReleaseState | null;

  @DoubleColumn(nullable)
  releasedMetricValue!: number | null;

  /** The shard exposure the result was released against. */
  @ForeignKeyColumn(() => HeldoutExposureEntity, 'verifications_exposure_id_fkey', nullable)
  exposureId!: string | null;

  /** The task metric per held-out item, when the benchmark reported `per_item`: for the release rule only, never public. */
  @JsonbColumn(nullable)
  perItem!: number[] | null;

  /** True while the raw metric is for validators and admins only: until its shard retires. */
  @Column({ type: 'boolean', default: false })
  metricWithheld!: boolean;

  @CreatedAt()
  createdAt!: Date;
}
