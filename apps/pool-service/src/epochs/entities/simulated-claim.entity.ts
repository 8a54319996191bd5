import { Check, Column, Entity, Index } from 'typeorm';
import { CreatedAt, IntegerColumn, ManyToOneOn, NumericColumn, SerialPrimaryKey, TextColumn } from '@rcs/persistence';
import { EpochEntity } from './epoch.entity';

/** A claim paid through the claim routes' simulation (`CLAIM_SIMULATION=true`): the ledger. */
@Entity({ name: 'simulated_claims' })
@Index('simulated_claims_epoch_idx', ['epoch', 'createdAt'])
@Index('simulated_claims_hotkey_idx', ['hotkey'])
@Check('simulated_claims_paid_check', `paid > 0`)
export class SimulatedClaimEntity {
  @SerialPrimaryKey('bigint', 'simulated_claims_pkey')
  id!: string;

  @IntegerColumn()
  epoch!: number;

  @ManyToOneOn(() => EpochEntity, 'epoch', 'simulated_claims_epoch_fkey')
  epochRow?: EpochEntity;

  @TextColumn()
  hotkey!: string;

  @TextColumn()
  recipientColdkey!: string;

  @NumericColumn(20, 0)
  amount!: string;

  @NumericColumn(20, 0)
  paid!: string;

  @IntegerColumn()
  block!: number;

  /** Written from the contract's `claimed_cumulative` because the claim's own row was lost (docs/pool-and-payouts.md, "Epochs and claims"). */
  @Column({ type: 'boolean', default: false })
  reconciled!: boolean;

  @CreatedAt()
  createdAt!: Date;
}
