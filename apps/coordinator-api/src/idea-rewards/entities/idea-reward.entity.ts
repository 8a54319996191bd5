import { Entity, Index, Unique } from 'typeorm';
import { CreatedAt, DoubleColumn, ForeignKeyColumn, nullable, TextColumn, UuidPrimaryKey } from '@rcs/persistence';
import { SubmissionEntity } from '../../submissions/entities/submission.entity';
import { TaskEntity } from '../../tasks/entities/task.entity';

/** Idea credit: an accepted centerless submission implementing idea I became the new best (DECISIONS.md §6). */
@Entity({ name: 'idea_rewards' })
@Unique('idea_rewards_one_per_improvement_unique', ['improvedSubmissionId'])
@Index('idea_rewards_created_idx', ['createdAt', 'id']) // (created_at DESC, id DESC)
export class IdeaRewardEntity {
  @UuidPrimaryKey('idea_rewards_pkey')
  id!: string;

  @ForeignKeyColumn(() => TaskEntity, 'idea_rewards_task_id_fkey')
  taskId!: string;

  @ForeignKeyColumn(() => SubmissionEntity, 'idea_rewards_improved_submission_id_fkey')
  improvedSubmissionId!: string;

  @ForeignKeyColumn(() => SubmissionEntity, 'idea_rewards_idea_submission_id_fkey')
  ideaSubmissionId!: string;

  @TextColumn()
  proposerHotkey!: string;

  @TextColumn()
  implementerHotkey!: string;

  @TextColumn()
  metricName!: string;

  @DoubleColumn(nullable)
  previousMetricValue!: number | null;

  @DoubleColumn()
  improvedMetricValue!: number;

  @DoubleColumn(nullable)
  improvementAmount!: number | null;

  @CreatedAt()
  createdAt!: Date;
}
