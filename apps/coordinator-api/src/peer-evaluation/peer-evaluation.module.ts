import { Module } from '@nestjs/common';
import { DecisionsModule } from '../decisions/decisions.module';
import { PeerEvaluationController } from './peer-evaluation.controller';
import { PeerEvaluationService } from './peer-evaluation.service';

@Module({
  imports: [DecisionsModule],
  controllers: [PeerEvaluationController],
  providers: [PeerEvaluationService],
})
export class PeerEvaluationModule {}

export { peerConsensusFor, peerEvaluationsForSubmission } from './peer-evaluation.readers';
