import { Global, Module } from '@nestjs/common';
import { ScheduleKeeper } from './schedule-keeper';

/** The keeper of repeatable schedules, for every module that owns one. */
@Global()
@Module({ providers: [ScheduleKeeper], exports: [ScheduleKeeper] })
export class SchedulesModule {}
