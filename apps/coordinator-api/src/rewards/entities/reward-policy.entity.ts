import { Check, Entity, PrimaryColumn } from 'typeorm';
import { CreatedAt, JsonbColumn } from '@rcs/persistence';

/** One stored version of the reward policy document; every version is kept (DECISIONS.md §7). */
@Entity({ name: 'reward_policies' })
@Check('reward_policies_version_check', 'version >= 1')
export class RewardPolicyEntity {
  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'reward_policies_pkey' })
  version!: number;

  /** The whole document without `updated_at` (that is `createdAt`). */
  @JsonbColumn()
  document!: Record<string, unknown>;

  @CreatedAt()
  createdAt!: Date;
}
