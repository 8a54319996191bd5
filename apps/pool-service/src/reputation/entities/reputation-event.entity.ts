import { Check, Entity, Index } from 'typeorm';
import { CreatedAt, DoubleColumn, IntegerColumn, ManyToOneOn, SerialPrimaryKey, TextColumn } from '@rcs/persistence';
import { AlgorithmEntity } from '../../algorithms/entities/algorithm.entity';
import { MinerEntity } from '../../miners/entities/miner.entity';

export const REPUTATION_EVENT_KINDS = ['evaluation_in_consensus', 'evaluation_out_of_consensus', 'evolution_improved'] as const;
export type ReputationEventKind = (typeof REPUTATION_EVENT_KINDS)[number];

/** One reputation change, decayed at read time (DECISIONS.md §11); at most one per miner, algorithm and kind. */
@Entity({ name: 'reputation_events' })
@Index('reputation_events_once_unique', ['minerHotkey', 'algorithmId', 'kind'], { unique: true })
@Index('reputation_events_miner_idx', ['minerHotkey', 'createdAt'])
@Check('reputation_events_kind_check', `kind IN ('evaluation_in_consensus', 'evaluation_out_of_consensus', 'evolution_improved')`)
export class ReputationEventEntity {
  @SerialPrimaryKey('bigint', 'reputation_events_pkey')
  id!: string;

  @TextColumn()
  minerHotkey!: string;

  @ManyToOneOn(() => MinerEntity, 'miner_hotkey', 'reputation_events_miner_fkey', { referencedColumnName: 'hotkey' })
  miner?: MinerEntity;

  @TextColumn()
  kind!: ReputationEventKind;

  @DoubleColumn()
  amount!: number;

  @IntegerColumn()
  algorithmId!: number;

  @ManyToOneOn(() => AlgorithmEntity, 'algorithm_id', 'reputation_events_algorithm_fkey')
  algorithm?: AlgorithmEntity;

  @CreatedAt()
  createdAt!: Date;
}
