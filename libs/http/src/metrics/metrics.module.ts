import { DynamicModule, Module } from '@nestjs/common';
import { AppMetrics } from './app-metrics';
import { QueueMetrics } from './queue-metrics';

/** Makes the app's `AppMetrics` injectable everywhere (domain counters) and adds the queue gauges. */
@Module({})
export class MetricsModule {
  static forRoot(metrics: AppMetrics): DynamicModule {
    return {
      module: MetricsModule,
      global: true,
      providers: [{ provide: AppMetrics, useValue: metrics }, QueueMetrics],
      exports: [AppMetrics],
    };
  }
}
