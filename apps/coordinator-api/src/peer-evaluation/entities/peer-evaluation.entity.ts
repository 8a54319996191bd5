import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { VerificationStatus } from '@rcs/contracts';

@Entity({ name: 'peer_evaluations' })
export class PeerEvaluationEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'uuid' })
  submissionId!: string;

  @Column({ type: 'uuid' })
  taskId!: string;

  @Column({ type: 'text' })
  evaluatorHotkey!: string;

  @Column({ type: 'text' })
  status!: VerificationStatus;

  @Column({ type: 'jsonb' })
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
