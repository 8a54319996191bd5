import { Module } from '@nestjs/common';
import { EpochsModule } from '../epochs/epochs.module';
import { MinerStatsModule } from '../miner-stats/miner-stats.module';
import { MinerOwners } from './miner-owners';
import { MinersController, RootColdkeyController } from './miners.controller';
import { MinersRepository } from './miners.repository';
import { MinersService } from './miners.service';

@Module({
  imports: [MinerStatsModule, EpochsModule],
  controllers: [MinersController, RootColdkeyController],
  providers: [MinersRepository, MinersService, MinerOwners],
  exports: [MinersRepository, MinerOwners],
})
export class MinersModule {}

export { MinersRepository } from './miners.repository';
