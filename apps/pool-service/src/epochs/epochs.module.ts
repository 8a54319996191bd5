import { Module } from '@nestjs/common';
import { PoolServiceConfig } from '../config/config';
import { POOL_CONFIG } from '../config/config.module';
import { EpochsJob } from './epochs.job';
import { EpochsRepository } from './epochs.repository';
import { EpochsService } from './epochs.service';
import { HttpRewardSnapshotSource, REWARD_SNAPSHOT_SOURCE } from './snapshot-source';

@Module({
  providers: [
    EpochsRepository,
    EpochsService,
    EpochsJob,
    { provide: REWARD_SNAPSHOT_SOURCE, inject: [POOL_CONFIG], useFactory: (config: PoolServiceConfig) => new HttpRewardSnapshotSource(config.payout.coordinatorUrl) },
  ],
  exports: [EpochsRepository, EpochsService],
})
export class EpochsModule {}

export { EpochsRepository } from './epochs.repository';
