import { Module } from '@nestjs/common';
import { RewardsModule } from '../rewards/rewards.module';
import { TasksController } from './tasks.controller';
import { TasksService } from './tasks.service';

@Module({
  imports: [RewardsModule],
  controllers: [TasksController],
  providers: [TasksService],
  exports: [TasksService],
})
export class TasksModule {}

export { TasksService } from './tasks.service';
export { toTaskDto } from './task.mapper';
