import { Module } from '@nestjs/common';
import { MinerResultsController } from './miner-results.controller';
import { MinerResultsRepository } from './miner-results.repository';
import { MinerResultsService } from './miner-results.service';

/** Public reads by miner hotkey (the web UI's miner page). */
@Module({
  controllers: [MinerResultsController],
  providers: [MinerResultsService, MinerResultsRepository],
})
export class MinerResultsModule {}
