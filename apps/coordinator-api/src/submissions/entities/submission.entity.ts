import { Check, Column, Entity, Index, Unique } from 'typeorm';
import { CreatedAt, DoubleColumn, ForeignKeyColumn, JsonbColumn, nullable, TextColumn, TimestampColumn, UpdatedAt, UuidPrimaryKey } from '@rcs/persistence';
import { bigintAsNumber } from '../../common/column-transformers';
import { ReleaseState, SubmissionStatus } from '@rcs/contracts';
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
// A miner's best accepted submission of a task, one probe per metric direction (the miner results route).
@Index('submissions_miner_best_min_idx', ['minerHotkey', 'taskId', 'verifiedMetricValue', 'decidedAt', 'id'], { where: "status = 'accepted'" })
@Index('submissions_miner_best_max_idx', ['minerHotkey', 'taskId', 'verifiedMetricValue', 'decidedAt', 'id'], { where: "status = 'accepted'" }) // verified_metric_value DESC NULLS LAST
@Check('submissions_patch_or_artifact', "patch <> '' OR artifact_uri IS NOT NULL")
@Check('submissions_artifact_sha256_check', "artifact_sha256 ~ '^[0-9a-f]{64}$'")
@Check('submissions_artifact_size_bytes_check', 'artifact_size_bytes >= 0')
@Check('submissions_status_check', "status IN ('pending_verification', 'accepted', 'rejected', 'error')")
@Check('submissions_release_check', "release IN ('improved', 'not_significant', 'held_for_rotation')")
export class SubmissionEntity {
  @UuidPrimaryKey('submissions_pkey')
  id!: string;

  @ForeignKeyColumn(() => TaskEntity, 'submissions_task_id_fkey')
  taskId!: string;

  @ForeignKeyColumn(() => ClaimEntity, 'submissions_claim_id_fkey')
  claimId!: string;

  @TextColumn()
  minerHotkey!: string;

  @TextColumn()
  baseRef!: string;

  @TextColumn({ default: '' })
  patch!: string;

  @TextColumn()
  summary!: string;

  @TextColumn(nullable)
  proposedIdea!: string | null;

  @ForeignKeyColumn(() => SubmissionEntity, 'submissions_implemented_submission_id_fkey', nullable)
  implementedSubmissionId!: string | null;

  @TextColumn(nullable)
  artifactUri!: string | null;

  @TextColumn(nullable)
  artifactSha256!: string | null;

  @Column({ type: 'bigint', nullable: true, transformer: bigintAsNumber })
  artifactSizeBytes!: number | null;

  @TextColumn(nullable)
  executionLog!: string | null;

  @JsonbColumn({ default: {} })
  claimedMetrics!: Record<string, unknown>;

  @TextColumn()
  status!: SubmissionStatus;

  /** When a validator result or peer consensus decided it; null while pending. */
  @TimestampColumn(nullable)
  decidedAt!: Date | null;

  /** The observed task metric that decided it (validator result or consensus median). */
  @DoubleColumn(nullable)
  verifiedMetricValue!: number | null;

  @DoubleColumn(nullable)
  verifiedSecondaryMetricValue!: number | null;

  /** Under a held-out budget, what the accepted result released (DECISIONS §17); `verifiedMetricValue` is then the released value. */
  @TextColumn(nullable)
  release!: ReleaseState | null;

  @CreatedAt()
  createdAt!: Date;

  @UpdatedAt()
  updatedAt!: Date;
}
