export * from './app-metrics';
export * from './http-metrics';
export * from './metrics.module';
export * from './queue-metrics';
