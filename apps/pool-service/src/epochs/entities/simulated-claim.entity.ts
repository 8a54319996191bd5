import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { EpochEntity } from './epoch.entity';

/** A claim paid through the claim routes' simulation (`CLAIM_SIMULATION=true`): the ledger. */
@Entity({ name: 'simulated_claims' })
@Index('simulated_claims_epoch_idx', ['epoch', 'createdAt'])
@Check('simulated_claims_paid_check', `paid > 0`)
export class SimulatedClaimEntity {
  @PrimaryGeneratedColumn('increment', { type: 'bigint', primaryKeyConstraintName: 'simulated_claims_pkey' })
  id!: string;

  @Column({ type: 'integer' })
  epoch!: number;

  @ManyToOne(() => EpochEntity, { nullable: false })
  @JoinColumn({ name: 'epoch', foreignKeyConstraintName: 'simulated_claims_epoch_fkey' })
  epochRow?: EpochEntity;

  @Column({ type: 'text' })
  hotkey!: string;

  @Column({ type: 'text' })
  recipientColdkey!: string;

  @Column({ type: 'numeric', precision: 20, scale: 0 })
  amount!: string;

  @Column({ type: 'numeric', precision: 20, scale: 0 })
  paid!: string;

  @Column({ type: 'integer' })
  block!: number;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}
