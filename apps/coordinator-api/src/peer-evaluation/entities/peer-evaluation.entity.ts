import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { VerificationStatus } from '@rcs/contracts';
import { SubmissionEntity } from '../../submissions/entities/submission.entity';
import { TaskEntity } from '../../tasks/entities/task.entity';

@Entity({ name: 'peer_evaluations' })
@Unique('peer_evaluations_one_per_evaluator_unique', ['submissionId', 'evaluatorHotkey'])
@Index('peer_evaluations_created_idx', ['createdAt', 'id']) // (created_at DESC, id DESC)
@Check('peer_evaluations_status_check', "status IN ('accepted', 'rejected', 'error')")
export class PeerEvaluationEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'peer_evaluations_pkey' })
  id!: string;

  @Column({ type: 'uuid' })
  @ForeignKey(() => SubmissionEntity, { name: 'peer_evaluations_submission_id_fkey' })
  submissionId!: string;

  @Column({ type: 'uuid' })
  @ForeignKey(() => TaskEntity, { name: 'peer_evaluations_task_id_fkey' })
  taskId!: string;

  @Column({ type: 'text' })
  evaluatorHotkey!: string;

  @Column({ type: 'text' })
  status!: VerificationStatus;

  @Column({ type: 'jsonb', default: {} })
  observedMetrics!: Record<string, unknown>;

  /** The task metric read from observed_metrics, when present and finite. */
  @Column({ type: 'double precision', nullable: true })
  metricValue!: number | null;

  @Column({ type: 'text', nullable: true })
  notes!: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  completedAt!: Date | null;
}
