import { Check, Entity, Index } from 'typeorm';
import { IntegerColumn, ManyToOneOn, nullable, NumericColumn, PrimaryKey, TextColumn } from '@rcs/persistence';
import { EpochEntity } from './epoch.entity';

/** One hotkey of an epoch: every hotkey with a positive cumulative, a leaf only with a recipient (DECISIONS.md §8). */
@Entity({ name: 'epoch_allocations' })
@Index('epoch_allocations_leaf_unique', ['epoch', 'leafIndex'], { unique: true, where: 'leaf_index IS NOT NULL' })
// A hotkey's newest leaves first (the recipient lookup's `published_in_epoch`).
@Index('epoch_allocations_hotkey_idx', ['hotkey', 'epoch'])
@Check('epoch_allocations_leaf_check', `(leaf_index IS NULL) = (recipient_coldkey IS NULL)`)
@Check('epoch_allocations_amounts_check', `units >= 0 AND cumulative >= units`)
export class EpochAllocationEntity {
  @PrimaryKey('integer', 'epoch_allocations_pkey')
  epoch!: number;

  @PrimaryKey('text', 'epoch_allocations_pkey')
  hotkey!: string;

  @ManyToOneOn(() => EpochEntity, 'epoch', 'epoch_allocations_epoch_fkey')
  epochRow?: EpochEntity;

  /** Earned in this epoch. */
  @NumericColumn(20, 0)
  units!: string;

  /** Earned since the first epoch: the leaf amount. */
  @NumericColumn(20, 0)
  cumulative!: string;

  @TextColumn(nullable)
  recipientColdkey!: string | null;

  @IntegerColumn(nullable)
  leafIndex!: number | null;
}
