import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { DecoratedMethods } from '@rcs/events';
import { ScheduleKeeper } from './schedule-keeper';

/** The keeper of the repeatable schedules that `@Repeat` declares on the app's job handlers, found at boot. */
@Module({ imports: [DiscoveryModule], providers: [DecoratedMethods, ScheduleKeeper], exports: [ScheduleKeeper] })
export class SchedulesModule {}
