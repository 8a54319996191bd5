import { Check, Entity, Index } from 'typeorm';
import { CreatedAt, ManyToOneOn, SerialPrimaryKey, TextColumn } from '@rcs/persistence';
import { MinerEntity } from './miner.entity';

export const RECIPIENT_CHANGE_KINDS = ['recipient', 'declared'] as const;
export type RecipientChangeKind = (typeof RECIPIENT_CHANGE_KINDS)[number];

/** Every recipient change and root declaration, with the signature that authorised it. */
@Entity({ name: 'recipient_changes' })
@Index('recipient_changes_hotkey_idx', ['hotkey', 'createdAt'])
@Check('recipient_changes_kind_check', `kind IN ('recipient', 'declared')`)
export class RecipientChangeEntity {
  @SerialPrimaryKey('bigint', 'recipient_changes_pkey')
  id!: string;

  @TextColumn()
  hotkey!: string;

  @ManyToOneOn(() => MinerEntity, 'hotkey', 'recipient_changes_hotkey_fkey', { referencedColumnName: 'hotkey' })
  miner?: MinerEntity;

  @TextColumn()
  kind!: RecipientChangeKind;

  /** Canonical SS58 of the new coldkey. */
  @TextColumn()
  coldkey!: string;

  /** The coldkey exactly as signed. */
  @TextColumn()
  signedColdkey!: string;

  @TextColumn()
  signedTimestamp!: string;

  @TextColumn()
  signature!: string;

  /** The route that made the change. */
  @TextColumn()
  route!: string;

  @CreatedAt()
  createdAt!: Date;
}
