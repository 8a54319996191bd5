import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { VerificationStatus } from '@rcs/contracts';
import { SubmissionEntity } from '../../submissions/entities/submission.entity';
import { TaskEntity } from '../../tasks/entities/task.entity';
import { ValidatorJobEntity } from './validator-job.entity';

/** What a validator observed for a submission (job result or manual verify); decides the submission. */
@Entity({ name: 'verifications' })
@Unique('verifications_one_per_job_unique', ['jobId'])
@Index('verifications_submission_idx', ['submissionId', 'createdAt']) // (submission_id, created_at DESC)
@Index('verifications_created_idx', ['createdAt', 'id']) // (created_at DESC, id DESC)
@Check('verifications_status_check', "status IN ('accepted', 'rejected', 'error')")
export class VerificationEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'verifications_pkey' })
  id!: string;

  @Column({ type: 'uuid' })
  @ForeignKey(() => SubmissionEntity, { name: 'verifications_submission_id_fkey' })
  submissionId!: string;

  @Column({ type: 'uuid' })
  @ForeignKey(() => ValidatorJobEntity, { name: 'verifications_job_id_fkey' })
  jobId!: string;

  @Column({ type: 'uuid' })
  @ForeignKey(() => TaskEntity, { name: 'verifications_task_id_fkey' })
  taskId!: string;

  /** The allowlisted validator, or `coordinator` when the coordinator itself gave up on a job. */
  @Column({ type: 'text' })
  validatorHotkey!: string;

  @Column({ type: 'text' })
  status!: VerificationStatus;

  @Column({ type: 'text' })
  metricName!: string;

  @Column({ type: 'double precision', nullable: true })
  metricValue!: number | null;

  @Column({ type: 'jsonb', default: {} })
  observedMetrics!: Record<string, unknown>;

  @Column({ type: 'text', nullable: true })
  notes!: string | null;

  /** Served only by the admin replay.log route. */
  @Column({ type: 'text', nullable: true })
  replayLog!: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}
