export * from './errors';
export {
  closeRedis,
  createRedis,
  redisOptionsFromUrl,
  redisReady,
  type CreateRedisOptions,
  type RedisReadiness,
} from './redis/redis';
export { REDIS, RedisModule, type RedisModuleAsyncOptions } from './redis/redis.module';
export * from './jobs/job-catalog';
export { JobQueue } from './jobs/job-queue.service';
export { JobWorkers } from './jobs/job-workers';
export { OnJob, type JobRef } from './registry/on-job.decorator';
export { buildJobRegistry, type DiscoveredHandler, type JobHandler, type JobRegistry } from './registry/job-registry';
export { QueueModule } from './queue.module';
export { QUEUE_MODULE_OPTIONS, type QueueModuleAsyncOptions, type QueueModuleOptions, type QueueSettings } from './queue.options';
