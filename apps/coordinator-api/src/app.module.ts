import { DynamicModule, Module } from '@nestjs/common';
import { AuthModule } from '@rcs/auth';
import { ChainModule, SUBTENSOR_PORT, SubtensorPort } from '@rcs/chain';
import { EventStreamModule } from '@rcs/http';
import { PersistenceModule } from '@rcs/persistence';
import { QueueModule, REDIS, RedisModule } from '@rcs/queue';
import type { Redis } from 'ioredis';
import { CoordinatorConfig } from './config/config';
import { ConfigModule } from './config/config.module';
import { COORDINATOR_ENTITIES, COORDINATOR_MIGRATIONS } from './database';
import { BestResultsModule } from './best-results/best-results.module';
import { ClaimsModule } from './claims/claims.module';
import { DashboardModule } from './dashboard/dashboard.module';
import { DecisionsModule } from './decisions/decisions.module';
import { EventsModule } from './events/events.module';
import { IdeaRewardsModule } from './idea-rewards/idea-rewards.module';
import { COORDINATOR_QUEUES } from './jobs/coordinator-jobs';
import { SchedulesModule } from './jobs/schedules.module';
import { CoordinatorMetricsModule } from './metrics/metrics.module';
import { PeerEvaluationModule } from './peer-evaluation/peer-evaluation.module';
import { PlannerModule } from './planner/planner.module';
import { RateLimitModule } from './rate-limit/rate-limit.module';
import { RewardsModule } from './rewards/rewards.module';
import { SubmissionsModule } from './submissions/submissions.module';
import { TasksModule } from './tasks/tasks.module';
import { ValidatorJobsModule } from './validator-jobs/validator-jobs.module';
import { WorkItemsModule } from './work-items/work-items.module';
import { DisclaimerController } from './disclaimer/disclaimer.controller';
import { HealthController } from './health/health.controller';
import { OnchainController } from './onchain/onchain.controller';

@Module({})
export class AppModule {
  static forRoot(config: CoordinatorConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        RedisModule.forRootAsync({ useFactory: () => ({ url: config.redisUrl, connectionName: 'coordinator-api' }) }),
        PersistenceModule.forRootAsync({
          useFactory: () => ({
            url: config.databaseUrl,
            embeddedDir: config.embeddedDataDir,
            entities: COORDINATOR_ENTITIES,
            migrations: COORDINATOR_MIGRATIONS,
            applicationName: 'coordinator-api',
          }),
        }),
        QueueModule.forRootAsync({
          useFactory: () => ({ redisUrl: config.redisUrl, prefix: `${config.redisKeyPrefix}:bull`, queues: COORDINATOR_QUEUES }),
        }),
        EventStreamModule.forRoot({ key: `${config.redisKeyPrefix}:coordinator:events`, ...config.events }),
        SchedulesModule,
        ChainModule.forRoot(config.chain),
        AuthModule.forRootAsync({
          inject: [REDIS, SUBTENSOR_PORT],
          useFactory: (redis: Redis, subtensor: SubtensorPort) => ({
            redis,
            maxSkewSeconds: config.authMaxSkewSeconds,
            replayKeyPrefix: `${config.redisKeyPrefix}:auth:replay:`,
            stakeCacheKeyPrefix: `${config.redisKeyPrefix}:auth:stake:`,
            adminTokens: config.adminTokens,
            adminTokenSha256: config.adminTokenSha256,
            validatorHotkeys: () => config.validatorHotkeys,
            stake: config.stakeCheck
              ? {
                  source: subtensor,
                  netuid: config.chain.netuid,
                  minStakeRao: config.minerMinStakeRao,
                  cacheSeconds: config.stakeCacheSeconds,
                }
              : null,
          }),
        }),
        // Every domain module, each importing the modules it really depends on.
        RateLimitModule,
        EventsModule,
        CoordinatorMetricsModule,
        TasksModule,
        ClaimsModule,
        WorkItemsModule,
        PlannerModule,
        SubmissionsModule,
        ValidatorJobsModule,
        DecisionsModule,
        BestResultsModule,
        IdeaRewardsModule,
        PeerEvaluationModule,
        RewardsModule,
        DashboardModule,
      ],
      controllers: [HealthController, DisclaimerController, OnchainController],
    };
  }
}
