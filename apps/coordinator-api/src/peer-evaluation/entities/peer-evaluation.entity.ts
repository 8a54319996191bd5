import { Check, Entity, Index, Unique } from 'typeorm';
import { CreatedAt, DoubleColumn, ForeignKeyColumn, JsonbColumn, nullable, TextColumn, TimestampColumn, UuidPrimaryKey } from '@rcs/persistence';
import { VerificationStatus } from '@rcs/contracts';
import { SubmissionEntity } from '../../submissions/entities/submission.entity';
import { TaskEntity } from '../../tasks/entities/task.entity';

@Entity({ name: 'peer_evaluations' })
@Unique('peer_evaluations_one_per_evaluator_unique', ['submissionId', 'evaluatorHotkey'])
@Unique('peer_evaluations_one_per_owner_unique', ['submissionId', 'evaluatorOwner'])
@Index('peer_evaluations_created_idx', ['createdAt', 'id']) // (created_at DESC, id DESC)
@Check('peer_evaluations_status_check', "status IN ('accepted', 'rejected', 'error')")
export class PeerEvaluationEntity {
  @UuidPrimaryKey('peer_evaluations_pkey')
  id!: string;

  @ForeignKeyColumn(() => SubmissionEntity, 'peer_evaluations_submission_id_fkey')
  submissionId!: string;

  @ForeignKeyColumn(() => TaskEntity, 'peer_evaluations_task_id_fkey')
  taskId!: string;

  @TextColumn()
  evaluatorHotkey!: string;

  /** The evaluator's owner coldkey (`SubtensorModule::Owner`, canonical SS58) when it evaluated: one evaluation per owner. */
  @TextColumn(nullable)
  evaluatorOwner!: string | null;

  @TextColumn()
  status!: VerificationStatus;

  @JsonbColumn({ default: {} })
  observedMetrics!: Record<string, unknown>;

  /** The task metric read from observed_metrics, when present and finite. */
  @DoubleColumn(nullable)
  metricValue!: number | null;

  @TextColumn(nullable)
  notes!: string | null;

  @CreatedAt()
  createdAt!: Date;

  @TimestampColumn(nullable)
  completedAt!: Date | null;
}
