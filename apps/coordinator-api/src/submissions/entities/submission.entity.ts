import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { bigintAsNumber } from '../../common/column-transformers';
import { SubmissionStatus } from '@rcs/contracts';

@Entity({ name: 'submissions' })
export class SubmissionEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'uuid' })
  taskId!: string;

  @Column({ type: 'uuid' })
  claimId!: string;

  @Column({ type: 'text' })
  minerHotkey!: string;

  @Column({ type: 'text' })
  baseRef!: string;

  @Column({ type: 'text' })
  patch!: string;

  @Column({ type: 'text' })
  summary!: string;

  @Column({ type: 'text', nullable: true })
  proposedIdea!: string | null;

  @Column({ type: 'uuid', nullable: true })
  implementedSubmissionId!: string | null;

  @Column({ type: 'text', nullable: true })
  artifactUri!: string | null;

  @Column({ type: 'text', nullable: true })
  artifactSha256!: string | null;

  @Column({ type: 'bigint', nullable: true, transformer: bigintAsNumber })
  artifactSizeBytes!: number | null;

  @Column({ type: 'text', nullable: true })
  executionLog!: string | null;

  @Column({ type: 'jsonb' })
  claimedMetrics!: Record<string, unknown>;

  @Column({ type: 'text' })
  status!: SubmissionStatus;

  /** When a validator result or peer consensus decided it; null while pending. */
  @Column({ type: 'timestamptz', nullable: true })
  decidedAt!: Date | null;

  /** The observed task metric that decided it (validator result or consensus median). */
  @Column({ type: 'double precision', nullable: true })
  verifiedMetricValue!: number | null;

  @Column({ type: 'double precision', nullable: true })
  verifiedSecondaryMetricValue!: number | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;
}
