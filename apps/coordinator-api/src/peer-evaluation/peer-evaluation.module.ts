import { Module } from '@nestjs/common';
import { DecisionsModule } from '../decisions/decisions.module';
import { SubmissionsRepositoryModule } from '../submissions/submissions-repository.module';
import { TasksModule } from '../tasks/tasks.module';
import { PeerEvaluationController } from './peer-evaluation.controller';
import { PeerEvaluationRepository } from './peer-evaluation.repository';
import { PeerEvaluationService } from './peer-evaluation.service';
import { MinerOwners } from './miner-owners';

@Module({
  imports: [DecisionsModule, SubmissionsRepositoryModule, TasksModule],
  controllers: [PeerEvaluationController],
  providers: [PeerEvaluationService, PeerEvaluationRepository, MinerOwners],
  // The submission detail reads a submission's evaluations and counts through it.
  exports: [PeerEvaluationRepository],
})
export class PeerEvaluationModule {}

export { PeerEvaluationRepository } from './peer-evaluation.repository';
