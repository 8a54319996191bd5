import { Module } from '@nestjs/common';
import { DecisionsModule } from '../decisions/decisions.module';
import { SubmissionDetailsModule } from '../submission-details/submission-details.module';
import { SubmissionsModule } from '../submissions/submissions.module';
import { TasksModule } from '../tasks/tasks.module';
import { PeerEvaluationController } from './peer-evaluation.controller';
import { PeerEvaluationRepository } from './peer-evaluation.repository';
import { PeerEvaluationService } from './peer-evaluation.service';
import { MinerOwners } from './miner-owners';

@Module({
  imports: [DecisionsModule, SubmissionDetailsModule, SubmissionsModule, TasksModule],
  controllers: [PeerEvaluationController],
  providers: [PeerEvaluationService, PeerEvaluationRepository, MinerOwners],
})
export class PeerEvaluationModule {}

export { PeerEvaluationRepository } from './peer-evaluation.repository';
