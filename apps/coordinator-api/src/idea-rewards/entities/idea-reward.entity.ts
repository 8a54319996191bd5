import { Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { SubmissionEntity } from '../../submissions/entities/submission.entity';
import { TaskEntity } from '../../tasks/entities/task.entity';

/** Idea credit: an accepted centerless submission implementing idea I became the new best (DECISIONS.md §6). */
@Entity({ name: 'idea_rewards' })
@Unique('idea_rewards_one_per_improvement_unique', ['improvedSubmissionId'])
@Index('idea_rewards_created_idx', ['createdAt', 'id']) // (created_at DESC, id DESC)
export class IdeaRewardEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'idea_rewards_pkey' })
  id!: string;

  @Column({ type: 'uuid' })
  @ForeignKey(() => TaskEntity, { name: 'idea_rewards_task_id_fkey' })
  taskId!: string;

  @Column({ type: 'uuid' })
  @ForeignKey(() => SubmissionEntity, { name: 'idea_rewards_improved_submission_id_fkey' })
  improvedSubmissionId!: string;

  @Column({ type: 'uuid' })
  @ForeignKey(() => SubmissionEntity, { name: 'idea_rewards_idea_submission_id_fkey' })
  ideaSubmissionId!: string;

  @Column({ type: 'text' })
  proposerHotkey!: string;

  @Column({ type: 'text' })
  implementerHotkey!: string;

  @Column({ type: 'text' })
  metricName!: string;

  @Column({ type: 'double precision', nullable: true })
  previousMetricValue!: number | null;

  @Column({ type: 'double precision' })
  improvedMetricValue!: number;

  @Column({ type: 'double precision', nullable: true })
  improvementAmount!: number | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}
