import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { VerificationStatus } from '@rcs/contracts';

/** What a validator observed for a submission (job result or manual verify); decides the submission. */
@Entity({ name: 'verifications' })
export class VerificationEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'uuid' })
  submissionId!: string;

  @Column({ type: 'uuid' })
  jobId!: string;

  @Column({ type: 'uuid' })
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

  @Column({ type: 'jsonb' })
  observedMetrics!: Record<string, unknown>;

  @Column({ type: 'text', nullable: true })
  notes!: string | null;

  /** Served only by the admin replay.log route. */
  @Column({ type: 'text', nullable: true })
  replayLog!: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}
