import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** Idea credit: an accepted centerless submission implementing idea I became the new best (DECISIONS.md §6). */
@Entity({ name: 'idea_rewards' })
export class IdeaRewardEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'uuid' })
  taskId!: string;

  @Column({ type: 'uuid' })
  improvedSubmissionId!: string;

  @Column({ type: 'uuid' })
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
