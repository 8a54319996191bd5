import { Module } from '@nestjs/common';
import { AlgorithmsModule } from '../algorithms/algorithms.module';
import { MinersModule } from '../miners/miners.module';
import { AssignmentExpiryJob } from './assignment-expiry.job';
import { AssignmentsRepository } from './assignments.repository';
import { AssignmentsService } from './assignments.service';
import { TasksController } from './tasks.controller';

@Module({
  imports: [AlgorithmsModule, MinersModule],
  controllers: [TasksController],
  providers: [AssignmentsRepository, AssignmentsService, AssignmentExpiryJob],
  exports: [AssignmentsRepository],
})
export class TasksModule {}
