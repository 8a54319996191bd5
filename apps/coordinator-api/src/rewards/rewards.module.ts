import { Module } from '@nestjs/common';
import { RewardPolicyController } from './reward-policy.controller';
import { RewardPolicyService } from './reward-policy.service';
import { RewardSnapshotController } from './reward-snapshot.controller';
import { RewardSnapshotService } from './reward-snapshot.service';
import { RewardsRebuildJob } from './rewards-rebuild.job';
import { RewardsRebuildService } from './rewards-rebuild.service';

/** Reward policy, reward snapshot and their rebuild queue (DECISIONS §7). */
@Module({
  controllers: [RewardPolicyController, RewardSnapshotController],
  providers: [RewardPolicyService, RewardSnapshotService, RewardsRebuildService, RewardsRebuildJob],
  exports: [RewardPolicyService, RewardsRebuildService],
})
export class RewardsModule {}
