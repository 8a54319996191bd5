import { DynamicModule, Module } from '@nestjs/common';
import { AppMetrics } from './app-metrics';
import { QueueMetrics } from './queue-metrics';
import { ReplicaReadMetrics } from './replica-metrics';

/** Makes the app's `AppMetrics` injectable everywhere (domain counters) and adds the queue gauges and the replica read counter. */
@Module({})
export class MetricsModule {
  static forRoot(metrics: AppMetrics): DynamicModule {
    return {
      module: MetricsModule,
      global: true,
      providers: [{ provide: AppMetrics, useValue: metrics }, QueueMetrics, ReplicaReadMetrics],
      exports: [AppMetrics],
    };
  }
}
