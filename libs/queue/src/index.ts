export * from './errors';
export { clusterTarget, isClusterUrl, queueKeyPrefix, type ClusterTarget } from './redis/cluster';
export {
  bullmqConnection,
  closeRedis,
  createRedis,
  duplicateRedis,
  releaseBullmqConnection,
  redisOptionsFromUrl,
  redisReady,
  REQUEST_COMMAND_TIMEOUT_MS,
  untilReady,
  type CreateRedisOptions,
  type RedisReadiness,
} from './redis/redis';
export { isRedisUnavailable, RedisUnavailableError } from './redis/connection-errors';
export { REDIS, RedisModule, type RedisModuleAsyncOptions } from './redis/redis.module';
export * from './jobs/job-catalog';
export { JobQueue, QUEUE_REACH_MS } from './jobs/job-queue.service';
export { JobWorkers } from './jobs/job-workers';
export { declaredSchedules, ScheduleKeeperOf, type RepeatableSchedule } from './jobs/schedule-keeper';
export { OnJob, type JobRef } from './registry/on-job.decorator';
export { onJobOf } from './registry/typed-on-job';
export { Repeat, type RepeatRef } from './registry/repeat.decorator';
export { repeatOf, type RepeatableHandlerOf } from './registry/typed-repeat';
export { buildJobRegistry, type DiscoveredHandler, type JobHandler, type JobRegistry } from './registry/job-registry';
export { QueueModule } from './queue.module';
export { QUEUE_MODULE_OPTIONS, type QueueModuleAsyncOptions, type QueueModuleOptions, type QueueSettings } from './queue.options';
