import { DynamicModule, Module } from '@nestjs/common';
import { ChainModule, SUBTENSOR_PORT, SubtensorPort } from '@rcs/chain';
import { createHealthController, serviceAuthModule, serviceStoreModules } from '@rcs/http';
import { Public } from '@rcs/auth';
import { ApiErrors } from '@rcs/contracts';
import { CoordinatorConfig } from './config/config';
import { ConfigModule } from './config/config.module';
import { COORDINATOR_ENTITIES, COORDINATOR_MIGRATIONS } from './database';
import { BestResultsModule } from './best-results/best-results.module';
import { ClaimsModule } from './claims/claims.module';
import { DashboardModule } from './dashboard/dashboard.module';
import { DecisionsModule } from './decisions/decisions.module';
import { EventsModule } from './events/events.module';
import { HeldoutModule } from './heldout/heldout.module';
import { MinerResultsModule } from './miners/miner-results.module';
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
        ...serviceStoreModules(config, {
          applicationName: 'coordinator-api',
          entities: COORDINATOR_ENTITIES,
          migrations: COORDINATOR_MIGRATIONS,
          queues: COORDINATOR_QUEUES,
          eventsKey: `${config.redisKeyPrefix}:coordinator:events`,
        }),
        SchedulesModule,
        ChainModule.forRoot(config.chain),
        serviceAuthModule(
          config,
          config.stakeCheck
            ? {
                inject: [SUBTENSOR_PORT],
                useFactory: (subtensor: SubtensorPort) => ({
                  source: subtensor,
                  netuid: config.chain.netuid,
                  minStakeRao: config.minerMinStakeRao,
                  cacheSeconds: config.stakeCacheSeconds,
                }),
              }
            : null,
        ),
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
        HeldoutModule,
        DecisionsModule,
        BestResultsModule,
        IdeaRewardsModule,
        PeerEvaluationModule,
        RewardsModule,
        DashboardModule,
        MinerResultsModule,
      ],
      controllers: [createHealthController('coordinator-api', '0.1.0', ['healthz'], Public(), ApiErrors()), HealthController, DisclaimerController, OnchainController],
    };
  }
}
