import { Module } from '@nestjs/common';
import { AlgorithmsModule } from '../algorithms/algorithms.module';
import { MinersModule } from '../miners/miners.module';
import { AssignmentExpiryJob } from './assignment-expiry.job';
import { AssignmentsRepository } from './assignments.repository';
import { AssignmentsService } from './assignments.service';
import { AssignmentsController } from './assignments.controller';

@Module({
  imports: [AlgorithmsModule, MinersModule],
  controllers: [AssignmentsController],
  providers: [AssignmentsRepository, AssignmentsService, AssignmentExpiryJob],
  exports: [AssignmentsRepository],
})
export class AssignmentsModule {}
