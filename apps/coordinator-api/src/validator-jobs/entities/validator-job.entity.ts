import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';
import { ValidatorJobStatus } from '@rcs/contracts';
import { SubmissionEntity } from '../../submissions/entities/submission.entity';
import { TaskEntity } from '../../tasks/entities/task.entity';

/** One replay of a standard or centerless submission by an allowlisted validator (DECISIONS.md §6). */
@Entity({ name: 'validator_jobs' })
@Unique('validator_jobs_one_per_submission_unique', ['submissionId'])
@Index('validator_jobs_pending_idx', ['createdAt', 'id'], { where: "status = 'pending'" })
@Index('validator_jobs_lease_idx', ['leaseExpiresAt'], { where: "status = 'leased'" })
@Check('validator_jobs_status_check', "status IN ('pending', 'leased', 'completed')")
export class ValidatorJobEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'validator_jobs_pkey' })
  id!: string;

  @Column({ type: 'uuid' })
  @ForeignKey(() => SubmissionEntity, { name: 'validator_jobs_submission_id_fkey' })
  submissionId!: string;

  @Column({ type: 'uuid' })
  @ForeignKey(() => TaskEntity, { name: 'validator_jobs_task_id_fkey' })
  taskId!: string;

  @Column({ type: 'text' })
  status!: ValidatorJobStatus;

  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  @Column({ type: 'text', nullable: true })
  validatorHotkey!: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  leaseExpiresAt!: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  completedAt!: Date | null;

  /** Why the last lease ended without a result (e.g. expired), for operators. */
  @Column({ type: 'text', nullable: true })
  lastError!: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;
}
