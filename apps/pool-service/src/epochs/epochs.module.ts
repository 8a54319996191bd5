import { Module } from '@nestjs/common';
import { PoolServiceConfig } from '../config/config';
import { POOL_CONFIG } from '../config/config.module';
import { EpochPublisher } from './epoch-publisher.service';
import { EpochsJob } from './epochs.job';
import { EpochsRepository } from './epochs.repository';
import { EpochsService } from './epochs.service';
import { SnapshotIntake } from './snapshot-intake.service';
import { HttpRewardSnapshotSource, REWARD_SNAPSHOT_SOURCE } from './snapshot-source';

/** Epochs: snapshot intake, rollover and publication (DECISIONS.md §8). */
@Module({
  providers: [
    EpochsRepository,
    SnapshotIntake,
    EpochsService,
    EpochPublisher,
    EpochsJob,
    { provide: REWARD_SNAPSHOT_SOURCE, inject: [POOL_CONFIG], useFactory: (config: PoolServiceConfig) => new HttpRewardSnapshotSource(config.payout.coordinatorUrl) },
  ],
  exports: [EpochsRepository, SnapshotIntake, EpochsService, EpochPublisher],
})
export class EpochsModule {}

export { EpochsRepository } from './epochs.repository';
export { EpochPublisher } from './epoch-publisher.service';
export { SnapshotIntake } from './snapshot-intake.service';
export { allocationUri, publicationEnabled } from './publication-config';
