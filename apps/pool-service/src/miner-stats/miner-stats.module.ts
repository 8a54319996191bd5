import { Module } from '@nestjs/common';
import { ReputationModule } from '../reputation/reputation.module';
import { MinerStatsReadModel } from './miner-stats.read-model';

/** The miner standing read model (stats, leaderboard, standing) over the tables of several domains. */
@Module({ imports: [ReputationModule], providers: [MinerStatsReadModel], exports: [MinerStatsReadModel] })
export class MinerStatsModule {}

export { MinerStatsReadModel } from './miner-stats.read-model';
