import { Global, Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module';
import { CoordinatorMetrics } from './coordinator-metrics';

/** The coordinator's domain counters, injectable by every domain module. */
@Global()
@Module({ imports: [EventsModule], providers: [CoordinatorMetrics], exports: [CoordinatorMetrics] })
export class CoordinatorMetricsModule {}
