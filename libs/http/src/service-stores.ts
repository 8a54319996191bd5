import { join, resolve } from 'node:path';
import { DynamicModule, FactoryProvider, Inject, Injectable, Module } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Redis } from 'ioredis';
import { AuthModule, StakeGateOptions } from '@rcs/auth';
import { EnvReader, readRedisUrl } from '@rcs/config';
import { databaseReady, OpenDatabaseOptions, PersistenceModule, ReadinessResult } from '@rcs/persistence';
import { QueueModule, QueueSettings, REDIS, RedisModule, RedisReadiness, redisReady } from '@rcs/queue';
import { EventStreamOptions } from './events/event-stream';
import { EventStreamModule } from './events/event-stream.module';
import { AdminTokenConfig } from './service';

/** Where a service keeps its state: Postgres (or an embedded one) and Redis. */
export interface ServiceStoresConfig {
  databaseUrl: string | null;
  /** `*_DATABASE_REPLICA_URLS`: streaming replicas for the public reads that tolerate lag (DECISIONS §19). */
  databaseReplicaUrls: string[];
  /** Named prepared statements for the hot paths; off for a pooler that cannot keep them. */
  databasePreparedStatements: boolean;
  /** Where the embedded Postgres keeps its files when no database URL is set. */
  embeddedDataDir: string;
  /** REDIS_URL, or the cluster form of REDIS_CLUSTER_NODES (`readRedisUrl`). */
  redisUrl: string;
  /** Prefix of every Redis key and BullMQ queue of this service, so several stacks can share one Redis. */
  redisKeyPrefix: string;
  /** Base of the hash tag of each of the service's queues, `{<queueKeyBase>:<queue>}` (DECISIONS §19). */
  queueKeyBase: string;
}

/** `databaseUrlVariable` names the service's own database URL (`replicaUrlsVariable` its read replicas'); its embedded Postgres keeps its files in `dataDir` under DATA_DIR. */
export function readServiceStoresConfig(
  read: EnvReader,
  cwd: string,
  service: { databaseUrlVariable: string; replicaUrlsVariable: string; dataDir: string; keyPrefix: (base: string) => string; app: string },
): ServiceStoresConfig {
  return {
    databaseUrl: read.optional(service.databaseUrlVariable),
    databaseReplicaUrls: read.list(service.replicaUrlsVariable),
    databasePreparedStatements: read.bool('DATABASE_PREPARED_STATEMENTS', true),
    embeddedDataDir: join(resolve(cwd, read.string('DATA_DIR', '.data')), service.dataDir),
    redisUrl: readRedisUrl(read),
    redisKeyPrefix: service.keyPrefix(read.string('REDIS_KEY_PREFIX', 'rcs')),
    queueKeyBase: `${read.string('REDIS_KEY_PREFIX', 'rcs')}:${service.app}`,
  };
}

/** What a service stores where: its tables, its queues, and the Redis key of its event stream. */
export interface ServiceStores {
  /** Names the service's Redis and Postgres connections. */
  applicationName: string;
  entities: OpenDatabaseOptions['entities'];
  migrations: OpenDatabaseOptions['migrations'];
  queues: Record<string, QueueSettings>;
  eventsKey: string;
}

/** Whether a service's database and Redis answer, for its readiness and health routes. */
@Injectable()
export class StoresReadiness {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  async check(): Promise<{ database: ReadinessResult; redis: RedisReadiness }> {
    const [database, redis] = await Promise.all([databaseReady(this.dataSource), redisReady(this.redis)]);
    return { database, redis };
  }
}

@Module({ providers: [StoresReadiness], exports: [StoresReadiness] })
class StoresReadinessModule {}

/**
 * The Redis connection, the database (migrated at boot), the job queues and the event stream of a
 * service, and StoresReadiness over the first two.
 */
export function serviceStoreModules(config: ServiceStoresConfig & { events: Omit<EventStreamOptions, 'key'> }, stores: ServiceStores): DynamicModule[] {
  const { applicationName } = stores;
  return [
    RedisModule.forRootAsync({ useFactory: () => ({ url: config.redisUrl, connectionName: applicationName }) }),
    PersistenceModule.forRootAsync({
      useFactory: () => ({
        url: config.databaseUrl,
        // Replicas stream from a Postgres server; the embedded one (no URL) has none.
        replicaUrls: config.databaseUrl === null ? [] : config.databaseReplicaUrls,
        embeddedDir: config.embeddedDataDir,
        preparedStatements: config.databasePreparedStatements,
        entities: stores.entities,
        migrations: stores.migrations,
        applicationName,
      }),
    }),
    QueueModule.forRootAsync({ useFactory: () => ({ redisUrl: config.redisUrl, prefix: config.queueKeyBase, queues: stores.queues }) }),
    EventStreamModule.forRoot({ key: stores.eventsKey, ...config.events }),
    { module: StoresReadinessModule, global: true },
  ];
}

/** What a service's request auth reads of its config. */
export interface ServiceAuthConfig extends ServiceStoresConfig, AdminTokenConfig {
  authMaxSkewSeconds: number;
  validatorHotkeys: string[];
}

/** The miner stake gate of a service, built from what it injects (the chain); null turns the gate off. */
export interface ServiceStakeGate {
  inject: FactoryProvider['inject'];
  // never[] admits a factory of any parameter list, typed by the caller.
  useFactory: (...deps: never[]) => StakeGateOptions;
}

/** Request auth with the replay nonces and stake decisions kept under the service's Redis prefix. */
export function serviceAuthModule(config: ServiceAuthConfig, stake: ServiceStakeGate | null): DynamicModule {
  return AuthModule.forRootAsync({
    inject: [REDIS, ...(stake?.inject ?? [])],
    useFactory: (redis: Redis, ...deps: never[]) => ({
      redis,
      maxSkewSeconds: config.authMaxSkewSeconds,
      // One hash tag: a replay check reads the store's start and writes the nonce in one script.
      replayKeyPrefix: `{${config.redisKeyPrefix}:auth:replay}:`,
      stakeCacheKeyPrefix: `${config.redisKeyPrefix}:auth:stake:`,
      adminTokens: config.adminTokens,
      adminTokenSha256: config.adminTokenSha256,
      validatorHotkeys: () => config.validatorHotkeys,
      stake: stake === null ? null : stake.useFactory(...deps),
    }),
  });
}
