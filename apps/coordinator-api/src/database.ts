import type { EntityClassOrSchema, MigrationClass } from '@rcs/persistence';
import { BestResultChangeEntity } from './best-results/entities/best-result-change.entity';
import { BestResultEntity } from './best-results/entities/best-result.entity';
import { ClaimEntity } from './claims/entities/claim.entity';
import { HeldoutExposureEntity } from './exposure/entities/heldout-exposure.entity';
import { HeldoutShardEntity } from './heldout/entities/heldout-shard.entity';
import { IdeaRewardEntity } from './idea-rewards/entities/idea-reward.entity';
import { CompetitionCore1763683200000 } from './migrations/1763683200000-competition-core';
import { Validation1763769600000 } from './migrations/1763769600000-validation';
import { Rewards1763856000000 } from './migrations/1763856000000-rewards';
import { DashboardIndexes1763942400000 } from './migrations/1763942400000-dashboard-indexes';
import { CanonicalHotkeys1764028800000 } from './migrations/1764028800000-canonical-hotkeys';
import { RewardSnapshotChanges1764115200000 } from './migrations/1764115200000-reward-snapshot-changes';
import { SnapshotChangesOfAccepted1764201600000 } from './migrations/1764201600000-snapshot-changes-of-accepted';
import { SubmissionsMinerAccepted1764288000000 } from './migrations/1764288000000-submissions-miner-accepted';
import { TaskHardware1764374400000 } from './migrations/1764374400000-task-hardware';
import { HeldoutShards1764460800000 } from './migrations/1764460800000-heldout-shards';
import { PeerEvaluationOwners1764547200000 } from './migrations/1764547200000-peer-evaluation-owners';
import { HeldoutRotation1764547234000 } from './migrations/1764547234000-heldout-rotation';
import { RewardSnapshotHistory1764550036000 } from './migrations/1764550036000-reward-snapshot-history';
import { MinerTaskResults1764633600000 } from './migrations/1764633600000-miner-task-results';
import { HeldoutExposure1765038000000 } from './migrations/1765038000000-heldout-exposure';
import { RescoreJobs1765038100000 } from './migrations/1765038100000-rescore-jobs';
import { VerificationPerItem1765038200000 } from './migrations/1765038200000-verification-per-item';
import { PendingRescoreJobs1765038300000 } from './migrations/1765038300000-pending-rescore-jobs';
import { MinerTaskResultEntity } from './miners/entities/miner-task-result.entity';
import { RewardPolicyEntity } from './rewards/entities/reward-policy.entity';
import { RewardSnapshotEntity } from './rewards/entities/reward-snapshot.entity';
import { RewardSnapshotChangeEntity } from './rewards/entities/reward-snapshot-change.entity';
import { RewardSnapshotHistoryEntity } from './rewards/entities/reward-snapshot-history.entity';
import { PeerEvaluationEntity } from './peer-evaluation/entities/peer-evaluation.entity';
import { SubmissionEntity } from './submissions/entities/submission.entity';
import { TaskEntity } from './tasks/entities/task.entity';
import { ValidatorJobEntity } from './validator-jobs/entities/validator-job.entity';
import { VerificationEntity } from './validator-jobs/entities/verification.entity';
import { WorkItemEntity } from './work-items/entities/work-item.entity';

/** Entities and migrations of the coordinator database, in one list each. */
export const COORDINATOR_ENTITIES: EntityClassOrSchema[] = [
  TaskEntity,
  ClaimEntity,
  WorkItemEntity,
  SubmissionEntity,
  ValidatorJobEntity,
  VerificationEntity,
  PeerEvaluationEntity,
  BestResultEntity,
  BestResultChangeEntity,
  IdeaRewardEntity,
  RewardPolicyEntity,
  RewardSnapshotEntity,
  RewardSnapshotChangeEntity,
  HeldoutShardEntity,
  RewardSnapshotHistoryEntity,
  MinerTaskResultEntity,
  HeldoutExposureEntity,
];

export const COORDINATOR_MIGRATIONS: MigrationClass[] = [
  CompetitionCore1763683200000,
  Validation1763769600000,
  Rewards1763856000000,
  DashboardIndexes1763942400000,
  CanonicalHotkeys1764028800000,
  RewardSnapshotChanges1764115200000,
  SnapshotChangesOfAccepted1764201600000,
  SubmissionsMinerAccepted1764288000000,
  TaskHardware1764374400000,
  HeldoutShards1764460800000,
  PeerEvaluationOwners1764547200000,
  HeldoutRotation1764547234000,
  RewardSnapshotHistory1764550036000,
  MinerTaskResults1764633600000,
  HeldoutExposure1765038000000,
  RescoreJobs1765038100000,
  VerificationPerItem1765038200000,
  PendingRescoreJobs1765038300000,
];
