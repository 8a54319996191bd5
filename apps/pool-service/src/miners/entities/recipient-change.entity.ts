import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { MinerEntity } from './miner.entity';

export const RECIPIENT_CHANGE_KINDS = ['recipient', 'declared'] as const;
export type RecipientChangeKind = (typeof RECIPIENT_CHANGE_KINDS)[number];

/** Every recipient change and root declaration, with the signature that authorised it. */
@Entity({ name: 'recipient_changes' })
@Index('recipient_changes_hotkey_idx', ['hotkey', 'createdAt'])
@Check('recipient_changes_kind_check', `kind IN ('recipient', 'declared')`)
export class RecipientChangeEntity {
  @PrimaryGeneratedColumn('increment', { type: 'bigint', primaryKeyConstraintName: 'recipient_changes_pkey' })
  id!: string;

  @Column({ type: 'text' })
  hotkey!: string;

  @ManyToOne(() => MinerEntity, { nullable: false })
  @JoinColumn({ name: 'hotkey', referencedColumnName: 'hotkey', foreignKeyConstraintName: 'recipient_changes_hotkey_fkey' })
  miner?: MinerEntity;

  @Column({ type: 'text' })
  kind!: RecipientChangeKind;

  /** Canonical SS58 of the new coldkey. */
  @Column({ type: 'text' })
  coldkey!: string;

  /** The coldkey exactly as signed. */
  @Column({ type: 'text' })
  signedColdkey!: string;

  @Column({ type: 'text' })
  signedTimestamp!: string;

  @Column({ type: 'text' })
  signature!: string;

  /** The route that made the change. */
  @Column({ type: 'text' })
  route!: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}
