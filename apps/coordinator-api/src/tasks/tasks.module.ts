import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module';
import { ExposureModule } from '../exposure/exposure.module';
import { TasksController } from './tasks.controller';
import { TasksRepository } from './tasks.repository';
import { OnboardDocumentService } from './onboard-document.service';
import { TasksService } from './tasks.service';

@Module({
  imports: [EventsModule, ExposureModule],
  controllers: [TasksController],
  providers: [TasksService, OnboardDocumentService, TasksRepository],
  // Claims, submissions, work items, validation and decisions read and lock tasks inside their own transaction.
  exports: [TasksService, TasksRepository],
})
export class TasksModule {}

export { TasksService } from './tasks.service';
export { TasksRepository } from './tasks.repository';
export { toTaskDto } from './task.mapper';
