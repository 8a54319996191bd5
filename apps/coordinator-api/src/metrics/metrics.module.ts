import { Global, Module } from '@nestjs/common';
import { CoordinatorMetrics } from './coordinator-metrics';

/** The coordinator's domain counters, injectable by every domain module. */
@Global()
@Module({ providers: [CoordinatorMetrics], exports: [CoordinatorMetrics] })
export class CoordinatorMetricsModule {}
