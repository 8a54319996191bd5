import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module';
import { RewardPolicyController } from './reward-policy.controller';
import { RewardPolicyRepository } from './reward-policy.repository';
import { RewardPolicyService } from './reward-policy.service';
import { RewardSnapshotController, RewardSnapshotHistoryController } from './reward-snapshot.controller';
import { RewardSnapshotRepository } from './reward-snapshot.repository';
import { RewardSnapshotService } from './reward-snapshot.service';
import { RewardsRebuildJob } from './rewards-rebuild.job';
import { RewardsRebuildService } from './rewards-rebuild.service';
import { RewardsRebuildTrigger } from './rewards-rebuild.trigger';

/** Reward policy, reward snapshot and their rebuild queue (DECISIONS §7), rebuilt on the domain events. */
@Module({
  imports: [EventsModule],
  controllers: [RewardPolicyController, RewardSnapshotController, RewardSnapshotHistoryController],
  providers: [RewardPolicyService, RewardPolicyRepository, RewardSnapshotRepository, RewardSnapshotService, RewardsRebuildService, RewardsRebuildJob, RewardsRebuildTrigger],
  exports: [RewardPolicyService, RewardsRebuildService],
})
export class RewardsModule {}
