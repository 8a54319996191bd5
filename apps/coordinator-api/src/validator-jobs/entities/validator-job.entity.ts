import { Check, Entity, Index } from 'typeorm';
import { CreatedAt, ForeignKeyColumn, IntegerColumn, nullable, TextColumn, TimestampColumn, UpdatedAt, UuidPrimaryKey } from '@rcs/persistence';
import { ValidatorJobReason, ValidatorJobStatus } from '@rcs/contracts';
import { HeldoutExposureEntity } from '../../exposure/entities/heldout-exposure.entity';
import { SubmissionEntity } from '../../submissions/entities/submission.entity';
import { TaskEntity } from '../../tasks/entities/task.entity';

/** One replay of a standard or centerless submission by an allowlisted validator (DECISIONS.md §6). */
@Entity({ name: 'validator_jobs' })
@Index('validator_jobs_one_decide_per_submission_idx', ['submissionId'], { unique: true, where: "reason = 'decide'" })
@Index('validator_jobs_one_open_rescore_idx', ['submissionId', 'exposureId'], { unique: true, where: "reason = 'rescore' AND status <> 'completed'" })
@Check('validator_jobs_reason_check', "reason IN ('decide', 'rescore')")
@Index('validator_jobs_pending_idx', ['createdAt', 'id'], { where: "status = 'pending'" })
@Index('validator_jobs_pending_rescore_idx', ['createdAt', 'id'], { where: "status = 'pending' AND reason = 'rescore'" })
@Index('validator_jobs_lease_idx', ['leaseExpiresAt'], { where: "status = 'leased'" })
@Check('validator_jobs_status_check', "status IN ('pending', 'leased', 'completed')")
@Check('validator_jobs_heldout_rotation_check', '(heldout_rotation_slot IS NULL) = (heldout_rotation_number IS NULL)')
export class ValidatorJobEntity {
  @UuidPrimaryKey('validator_jobs_pkey')
  id!: string;

  @ForeignKeyColumn(() => SubmissionEntity, 'validator_jobs_submission_id_fkey')
  submissionId!: string;

  @ForeignKeyColumn(() => TaskEntity, 'validator_jobs_task_id_fkey')
  taskId!: string;

  @TextColumn()
  status!: ValidatorJobStatus;

  /** `decide`: the job decides its submission; `rescore`: it re-scores a decided one (DECISIONS §17). */
  @TextColumn({ default: 'decide' })
  reason!: ValidatorJobReason;

  /** A re-score's shard exposure (null: an admin re-score of a task without a budget). */
  @ForeignKeyColumn(() => HeldoutExposureEntity, 'validator_jobs_exposure_id_fkey', nullable)
  exposureId!: string | null;

  @IntegerColumn({ default: 0 })
  attempts!: number;

  @TextColumn(nullable)
  validatorHotkey!: string | null;

  @TimestampColumn(nullable)
  leaseExpiresAt!: Date | null;

  @TimestampColumn(nullable)
  completedAt!: Date | null;

  /** Why the last lease ended without a result (e.g. expired), for operators. */
  @TextColumn(nullable)
  lastError!: string | null;

  /** SHA-256 of the held-out shard chosen for the current (or last) lease; null when the task names none. */
  @TextColumn(nullable)
  heldoutSha256!: string | null;

  /** The held-out rotation slot of the job's first lease (DECISIONS §15); kept by re-leases. */
  @IntegerColumn(nullable)
  heldoutRotationSlot!: number | null;

  /** Validator-private: HMAC of the task and slot under HELDOUT_ROTATION_SECRET, hex (first 16 bytes). */
  @TextColumn(nullable)
  heldoutRotationNumber!: string | null;

  @CreatedAt()
  createdAt!: Date;

  @UpdatedAt()
  updatedAt!: Date;
}
