export { childProcessBaseEnv, testDatabaseUrlBase, testRedisUrl } from './config';
export { InvalidDatabaseNameError, SchemaDriftError, WaitForHttpTimeoutError } from './errors';
export { createScratchDatabase, type ScratchDatabase } from './database/scratch-database';
export {
  createTemplateDatabase,
  migrationFingerprint,
  type TemplateDatabase,
  type TemplateSpec,
  type TestDataSourceOptions,
  type TestEntities,
  type TestMigrationClass,
} from './database/template-database';
export { createTestDatabase, type TestDatabase, type TestDatabaseSpec } from './database/test-database';
export { expectNoSchemaDrift, schemaDrift, type SchemaSpec } from './database/schema-drift';
export { createTestRedis, deleteKeysWithPrefix, type TestRedis } from './redis/test-redis';
export { freePort } from './net/free-port';
export { waitForHttp, type WaitForHttpOptions, type WaitForHttpResult } from './net/wait-for-http';
export { spawnService, ServiceExitedError, type SpawnedService, type SpawnServiceOptions } from './process/spawn-service';
export { expectServiceAnswers } from './process/expect-service';
export { runScript } from './process/run-script';
export { localStackPlace, startLocalStack, type LocalStack, type LocalStackPlace } from './process/local-stack';
export { devCoordinatorEnv } from './process/dev-coordinator-env';
export { startRedisCluster, type RedisCluster, type RedisClusterNode } from './process/redis-cluster';
export { BackingServiceError, startPostgresServer, startRedisServer, type PostgresReplica, type PostgresServer, type RedisServer } from './process/backing-services';
export { controllerRoutes, joinRoutePath, type ControllerRoute } from './http/controller-routes';
export { routeDeclarations, routeDeclarationGaps, type RouteDeclaration } from './http/route-declarations';
export { callService, type CallAuth } from './http/call-service';
export { SseClient, SseTimeoutError, type SseEvent } from './http/sse-client';
export { describeEventStreamLimits, type EventStreamLimitSuite, type StreamCounter, type StreamLimitTarget } from './http/event-stream-limits';
export { metricValue, MetricsScrapeError, scrapeMetrics } from './http/metrics-text';
export { suiteResource } from './jest/suite-resource';
export { thrownBy } from './thrown-by';
export { suiteTempDir, testTempDir } from './jest/temp-dir';
export { FakeCoordinator, snapshotOf } from './http/fake-coordinator';
export { until, UntilError } from './until';
export {
  benchTaskBody,
  runValidatorRunner,
  startCoordinatorProcess,
  type CoordinatorDatabase,
  type CoordinatorProcessOptions,
  type RunnerRun,
  type RunningCoordinator,
} from './stack/coordinator-process';
export { REPO_ROOT, repoNodeArgs } from './process/repo-node';
export { ArtifactHost, makeTernaryRepository, packTernaryArtifacts, PACKS_DIR, pythonNumpyProblem, TernaryPackError, ternaryTaskBody, type TernaryPacking } from './stack/ternary-pack';
export { SPEC_COMPETITION_DEFAULTS, SPEC_TASK_METRIC_DEFAULTS } from './fixtures/spec-defaults';
