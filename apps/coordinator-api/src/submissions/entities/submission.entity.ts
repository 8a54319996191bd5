import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';
import { bigintAsNumber } from '../../common/column-transformers';
import { SubmissionStatus } from '@rcs/contracts';
import { ClaimEntity } from '../../claims/entities/claim.entity';
import { TaskEntity } from '../../tasks/entities/task.entity';

@Entity({ name: 'submissions' })
@Unique('submissions_one_per_claim_unique', ['claimId'])
@Index('submissions_created_idx', ['createdAt', 'id']) // (created_at DESC, id DESC)
@Index('submissions_task_created_idx', ['taskId', 'createdAt', 'id']) // (task_id, created_at DESC, id DESC)
@Index('submissions_status_created_idx', ['status', 'createdAt', 'id']) // (status, created_at DESC, id DESC)
@Index('submissions_task_decided_idx', ['taskId', 'decidedAt'], { where: "status = 'accepted'" })
@Index('submissions_decided_idx', ['decidedAt', 'id'], { where: 'decided_at IS NOT NULL' }) // (decided_at DESC, id DESC)
@Index('submissions_task_status_idx', ['taskId', 'status'])
@Check('submissions_patch_or_artifact', "patch <> '' OR artifact_uri IS NOT NULL")
@Check('submissions_artifact_sha256_check', "artifact_sha256 ~ '^[0-9a-f]{64}$'")
@Check('submissions_artifact_size_bytes_check', 'artifact_size_bytes >= 0')
@Check('submissions_status_check', "status IN ('pending_verification', 'accepted', 'rejected', 'error')")
export class SubmissionEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'submissions_pkey' })
  id!: string;

  @Column({ type: 'uuid' })
  @ForeignKey(() => TaskEntity, { name: 'submissions_task_id_fkey' })
  taskId!: string;

  @Column({ type: 'uuid' })
  @ForeignKey(() => ClaimEntity, { name: 'submissions_claim_id_fkey' })
  claimId!: string;

  @Column({ type: 'text' })
  minerHotkey!: string;

  @Column({ type: 'text' })
  baseRef!: string;

  @Column({ type: 'text', default: '' })
  patch!: string;

  @Column({ type: 'text' })
  summary!: string;

  @Column({ type: 'text', nullable: true })
  proposedIdea!: string | null;

  @Column({ type: 'uuid', nullable: true })
  @ForeignKey(() => SubmissionEntity, { name: 'submissions_implemented_submission_id_fkey' })
  implementedSubmissionId!: string | null;

  @Column({ type: 'text', nullable: true })
  artifactUri!: string | null;

  @Column({ type: 'text', nullable: true })
  artifactSha256!: string | null;

  @Column({ type: 'bigint', nullable: true, transformer: bigintAsNumber })
  artifactSizeBytes!: number | null;

  @Column({ type: 'text', nullable: true })
  executionLog!: string | null;

  @Column({ type: 'jsonb', default: {} })
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
