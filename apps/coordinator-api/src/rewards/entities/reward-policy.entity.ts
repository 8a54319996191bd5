import { Check, Entity } from 'typeorm';
import { CreatedAt, JsonbColumn, PrimaryKey } from '@rcs/persistence';

/** One stored version of the reward policy document; every version is kept (DECISIONS.md §7). */
@Entity({ name: 'reward_policies' })
@Check('reward_policies_version_check', 'version >= 1')
export class RewardPolicyEntity {
  @PrimaryKey('integer', 'reward_policies_pkey')
  version!: number;

  /** The whole document without `updated_at` (that is `createdAt`). */
  @JsonbColumn()
  document!: Record<string, unknown>;

  @CreatedAt()
  createdAt!: Date;
}
