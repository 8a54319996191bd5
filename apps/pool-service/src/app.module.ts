import { DynamicModule, Module } from '@nestjs/common';
import { ChainModule, SUBTENSOR_PORT, SubtensorPort } from '@rcs/chain';
import { createHealthController, serviceAuthModule, serviceStoreModules } from '@rcs/http';
import { Public } from '@rcs/auth';
import { ApiErrors } from '@rcs/contracts';
import { AlgorithmsModule } from './algorithms/algorithms.module';
import { PayoutClaimsModule } from './payout-claims/payout-claims.module';
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
import { SchedulesModule } from './jobs/schedules.module';
import { PoolMetricsModule } from './metrics/pool-metrics';
import { MinersModule } from './miners/miners.module';
import { ReputationModule } from './reputation/reputation.module';
import { ResultsModule } from './results/results.module';
import { AssignmentsModule } from './assignments/assignments.module';

@Module({})
export class AppModule {
  static forRoot(config: PoolServiceConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        ...serviceStoreModules(config, {
          applicationName: 'pool-service',
          entities: POOL_ENTITIES,
          migrations: POOL_MIGRATIONS,
          queues: POOL_QUEUES,
          eventsKey: `${config.redisKeyPrefix}:events`,
        }),
        PoolMetricsModule,
        EventsModule,
        ChainModule.forRoot(config.chain),
        // Every pool-wallet signed route passes the stake gate with POOL_MIN_STAKE_RAO (DECISIONS.md §11 Sybil resistance).
        serviceAuthModule(
          config,
          config.stake.check
            ? {
                inject: [SUBTENSOR_PORT],
                useFactory: (subtensor: SubtensorPort) => ({
                  source: subtensor,
                  netuid: config.chain.netuid,
                  minStakeRao: config.stake.minStakeRao,
                  cacheSeconds: config.stake.cacheSeconds,
                }),
              }
            : null,
        ),
        ClockModule,
        SchedulesModule,
        ReputationModule,
        MinersModule,
        ResultsModule,
        AlgorithmsModule,
        AssignmentsModule,
        EpochsModule,
        ...PayoutClaimsModule.forRoot(config),
      ],
      controllers: [createHealthController('pool-service', '0.1.0', ['healthz'], Public(), ApiErrors()), HealthController, DisclaimerController],
      providers: [TrailingSlashAliases],
    };
  }
}
