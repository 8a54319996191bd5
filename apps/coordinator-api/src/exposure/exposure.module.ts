import { Module } from '@nestjs/common';
import { ExposureRepository } from './exposure.repository';
import { ExposureService } from './exposure.service';

/** The held-out exposure budget (DECISIONS §17): decisions release through it, tasks show it, leases score on its active shard. */
@Module({
  providers: [ExposureRepository, ExposureService],
  exports: [ExposureService],
})
export class ExposureModule {}

export { ExposureService, type ExposureChanged, type PendingRelease, type RecordedRelease, type HeldRelease, type RescoreInput, type RescoreOutcome } from './exposure.service';
