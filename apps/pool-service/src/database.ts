import type { EntityClassOrSchema, MigrationClass } from '@rcs/persistence';
import { AlgorithmEntity } from './algorithms/entities/algorithm.entity';
import { EvaluationEntity } from './algorithms/entities/evaluation.entity';
import { AssignmentEntity } from './assignments/entities/assignment.entity';
import { EpochAllocationEntity } from './epochs/entities/epoch-allocation.entity';
import { EpochEntity } from './epochs/entities/epoch.entity';
import { RewardSnapshotEntity } from './epochs/entities/reward-snapshot.entity';
import { SimulatedClaimEntity } from './epochs/entities/simulated-claim.entity';
import { PoolMining1795444169456 } from './migrations/1795444169456-pool-mining';
import { PoolEpochs1795447475197 } from './migrations/1795447475197-pool-epochs';
import { PoolSybilResistance1795460000000 } from './migrations/1795460000000-pool-sybil-resistance';
import { CanonicalDslHash1795711439859 } from './migrations/1795711439859-canonical-dsl-hash';
import { EpochAllocationsByHotkey1795711795910 } from './migrations/1795711795910-epoch-allocations-by-hotkey';
import { MinerStandings1795800000000 } from './migrations/1795800000000-miner-standings';
import { SimulatedClaimsReconciled1795900000000 } from './migrations/1795900000000-simulated-claims-reconciled';
import { StandingsRankOrder1796000000000 } from './migrations/1796000000000-standings-rank-order';
import { MinerEntity } from './miners/entities/miner.entity';
import { RecipientChangeEntity } from './miners/entities/recipient-change.entity';
import { MinerStandingEntity } from './reputation/entities/miner-standing.entity';
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
  MinerStandingEntity,
  ResultEntity,
  SotaEntity,
  RewardSnapshotEntity,
  EpochEntity,
  EpochAllocationEntity,
  SimulatedClaimEntity,
];

export const POOL_MIGRATIONS: MigrationClass[] = [
  PoolMining1795444169456,
  PoolEpochs1795447475197,
  PoolSybilResistance1795460000000,
  CanonicalDslHash1795711439859,
  EpochAllocationsByHotkey1795711795910,
  MinerStandings1795800000000,
  SimulatedClaimsReconciled1795900000000,
  StandingsRankOrder1796000000000,
];
