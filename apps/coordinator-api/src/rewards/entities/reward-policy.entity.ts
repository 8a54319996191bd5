import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** One stored version of the reward policy document; every version is kept (DECISIONS.md §7). */
@Entity({ name: 'reward_policies' })
export class RewardPolicyEntity {
  @PrimaryColumn({ type: 'integer' })
  version!: number;

  /** The whole document without `updated_at` (that is `createdAt`). */
  @Column({ type: 'jsonb' })
  document!: Record<string, unknown>;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}
