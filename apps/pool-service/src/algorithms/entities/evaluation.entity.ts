import { Column, Entity, Index } from 'typeorm';
import { CreatedAt, DoubleColumn, IntegerColumn, ManyToOneOn, SerialPrimaryKey, TextColumn } from '@rcs/persistence';
import { AssignmentEntity } from '../../assignments/entities/assignment.entity';
import { MinerEntity } from '../../miners/entities/miner.entity';
import { AlgorithmEntity } from './algorithm.entity';

/** One miner's score of one algorithm; `in_consensus` is set when the algorithm is decided. */
@Entity({ name: 'evaluations' })
@Index('evaluations_one_per_miner_unique', ['algorithmId', 'minerHotkey'], { unique: true })
@Index('evaluations_one_per_owner_unique', ['algorithmId', 'ownerColdkey'], { unique: true })
@Index('evaluations_miner_idx', ['minerHotkey'])
@Index('evaluations_assignment_idx', ['assignmentId'])
export class EvaluationEntity {
  @SerialPrimaryKey('bigint', 'evaluations_pkey')
  id!: string;

  @IntegerColumn()
  algorithmId!: number;

  @ManyToOneOn(() => AlgorithmEntity, 'algorithm_id', 'evaluations_algorithm_fkey')
  algorithm?: AlgorithmEntity;

  @TextColumn()
  minerHotkey!: string;

  @ManyToOneOn(() => MinerEntity, 'miner_hotkey', 'evaluations_miner_fkey', { referencedColumnName: 'hotkey' })
  miner?: MinerEntity;

  /** The evaluator's owner coldkey: consensus counts one evaluation per owner (DECISIONS.md §11). */
  @TextColumn()
  ownerColdkey!: string;

  @Column({ type: 'uuid' })
  assignmentId!: string;

  @ManyToOneOn(() => AssignmentEntity, 'assignment_id', 'evaluations_assignment_fkey')
  assignment?: AssignmentEntity;

  @DoubleColumn()
  score!: number;

  /** null until the algorithm is scored or rejected. */
  @Column({ type: 'boolean', nullable: true })
  inConsensus!: boolean | null;

  @CreatedAt()
  createdAt!: Date;
}
