import type { EntityClassOrSchema, MigrationClass } from '@rcs/persistence';
import { AlgorithmEntity } from './algorithms/entities/algorithm.entity';
import { EvaluationEntity } from './algorithms/entities/evaluation.entity';
import { AssignmentEntity } from './assignments/entities/assignment.entity';
import { PoolMining1795444169456 } from './migrations/1795444169456-pool-mining';
import { MinerEntity } from './miners/entities/miner.entity';
import { RecipientChangeEntity } from './miners/entities/recipient-change.entity';
import { ReputationEventEntity } from './reputation/entities/reputation-event.entity';
import { ResultEntity } from './results/entities/result.entity';
import { SotaEntity } from './results/entities/sota.entity';

/** Entities and migrations of the pool database, in one list each. */
export const POOL_ENTITIES: EntityClassOrSchema[] = [
  MinerEntity,
  RecipientChangeEntity,
  AlgorithmEntity,
  EvaluationEntity,
  AssignmentEntity,
  ReputationEventEntity,
  ResultEntity,
  SotaEntity,
];

export const POOL_MIGRATIONS: MigrationClass[] = [PoolMining1795444169456];
