import { Module } from '@nestjs/common';
import { BestResultsModule } from '../best-results/best-results.module';
import { RewardsModule } from '../rewards/rewards.module';
import { PeerEvaluationController } from './peer-evaluation.controller';
import { PeerEvaluationService } from './peer-evaluation.service';

@Module({
  imports: [BestResultsModule, RewardsModule],
  controllers: [PeerEvaluationController],
  providers: [PeerEvaluationService],
})
export class PeerEvaluationModule {}

export { peerConsensusFor, peerEvaluationsForSubmission } from './peer-evaluation.readers';
