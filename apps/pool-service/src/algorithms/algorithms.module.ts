import { Module } from '@nestjs/common';
import { ReputationModule } from '../reputation/reputation.module';
import { ResultsModule } from '../results/results.module';
import { AlgorithmsRepository } from './algorithms.repository';
import { ConsensusService } from './consensus.service';
import { SeedLoader } from './seed-loader';

@Module({
  imports: [ReputationModule, ResultsModule],
  providers: [AlgorithmsRepository, ConsensusService, SeedLoader],
  exports: [AlgorithmsRepository, ConsensusService],
})
export class AlgorithmsModule {}

export { AlgorithmsRepository } from './algorithms.repository';
