import { DynamicModule, Module } from '@nestjs/common';
import { AuthModule } from '@rcs/auth';
import { ChainModule } from '@rcs/chain';
import { EventStreamModule } from '@rcs/http';
import { PersistenceModule } from '@rcs/persistence';
import { QueueModule, REDIS, RedisModule } from '@rcs/queue';
import type { Redis } from 'ioredis';
import { AlgorithmsModule } from './algorithms/algorithms.module';
import { AssignmentsModule } from './assignments/assignments.module';
import { ClaimsModule } from './claims/claims.module';
import { ClockModule } from './common/clock.module';
import { TrailingSlashAliases } from './common/trailing-slash';
import { PoolServiceConfig } from './config/config';
import { ConfigModule } from './config/config.module';
import { POOL_ENTITIES, POOL_MIGRATIONS } from './database';
import { DisclaimerController } from './disclaimer/disclaimer.controller';
import { EpochsModule } from './epochs/epochs.module';
import { EventsModule } from './events/events.module';
import { HealthController } from './health/health.controller';
import { POOL_QUEUES } from './jobs/pool-jobs';
import { PoolMetricsModule } from './metrics/pool-metrics';
import { MinersModule } from './miners/miners.module';
import { ReputationModule } from './reputation/reputation.module';
import { ResultsModule } from './results/results.module';

@Module({})
export class AppModule {
  static forRoot(config: PoolServiceConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        RedisModule.forRootAsync({ useFactory: () => ({ url: config.redisUrl, connectionName: 'pool-service' }) }),
        PersistenceModule.forRootAsync({
          useFactory: () => ({
            url: config.databaseUrl,
            embeddedDir: config.embeddedDataDir,
            entities: POOL_ENTITIES,
            migrations: POOL_MIGRATIONS,
            applicationName: 'pool-service',
          }),
        }),
        QueueModule.forRootAsync({
          useFactory: () => ({ redisUrl: config.redisUrl, prefix: `${config.redisKeyPrefix}:bull`, queues: POOL_QUEUES }),
        }),
        EventStreamModule.forRoot({ key: `${config.redisKeyPrefix}:events`, ...config.events }),
        PoolMetricsModule,
        EventsModule,
        ChainModule.forRoot(config.chain),
        AuthModule.forRootAsync({
          inject: [REDIS],
          useFactory: (redis: Redis) => ({
            redis,
            maxSkewSeconds: config.authMaxSkewSeconds,
            replayKeyPrefix: `${config.redisKeyPrefix}:auth:replay:`,
            stakeCacheKeyPrefix: `${config.redisKeyPrefix}:auth:stake:`,
            adminTokens: config.adminTokens,
            adminTokenSha256: config.adminTokenSha256,
            validatorHotkeys: () => config.validatorHotkeys,
            // Pool routes are pool-wallet signed; the miner stake gate is a coordinator concern.
            stake: null,
          }),
        }),
        ClockModule,
        ReputationModule,
        MinersModule,
        ResultsModule,
        AlgorithmsModule,
        AssignmentsModule,
        EpochsModule,
        ...ClaimsModule.forRoot(config),
      ],
      controllers: [HealthController, DisclaimerController],
      providers: [TrailingSlashAliases],
    };
  }
}
