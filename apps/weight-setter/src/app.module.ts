import { DynamicModule, Module } from '@nestjs/common';
import type { KeyringPair } from '@polkadot/keyring/types';
import type { Redis } from 'ioredis';
import type { SubtensorPort } from '@rcs/chain';
import { loadValidatorKeypair } from '@rcs/auth';
import { CoordinatorClient } from '@rcs/client';
import { QUEUE_JOB_NAMES, QueueName } from '@rcs/contracts';
import { createHealthController, createLogger } from '@rcs/http';
import { QueueModule, REDIS, RedisModule } from '@rcs/queue';
import type { WeightSetterConfig } from './config/config';
import { StatusController } from './status/status.controller';
import { StatusService } from './status/status.service';
import { createSubtensor } from './weights/chain-wiring';
import { OwnerLock } from './weights/owner-lock';
import { OwnershipService } from './weights/ownership.service';
import { PassStatusStore } from './weights/pass-status.store';
import { RevealWatchService } from './weights/reveal-watch.service';
import { SetterIdentity } from './weights/setter-identity';
import { SUBTENSOR, VALIDATOR_KEYPAIR, WEIGHTS_CLOCK, WEIGHTS_CONFIG, WEIGHTS_LOGGER } from './weights/tokens';
import { WeightsPassService } from './weights/weights-pass.service';
import { SnapshotDigester } from './weights/snapshot-worker';
import { WeightsJobHandler } from './weights/weights.job';

/** /healthz, /readyz, /status, /metrics; the owner lock and the `weights.set` worker. */
@Module({})
export class AppModule {
  /** `options.now`: the clock passes time their reveal round by (`Date.now` unless a test sets it). */
  static forRoot(config: WeightSetterConfig, options: { now?: () => number } = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        RedisModule.forRootAsync({ useFactory: () => ({ url: config.redisUrl, connectionName: 'weight-setter' }) }),
        QueueModule.forRootAsync({
          useFactory: () => ({
            redisUrl: config.redisUrl,
            prefix: `${config.redisKeyPrefix}:weight-setter`,
            // Paused until this process owns the hotkey: a standby never runs a pass.
            queues: { [QueueName.Weights]: { jobNames: QUEUE_JOB_NAMES[QueueName.Weights], concurrency: 1, startPaused: true } },
          }),
        }),
      ],
      controllers: [createHealthController('weight-setter', '0.1.0', ['healthz']), StatusController],
      providers: [
        { provide: WEIGHTS_CONFIG, useValue: config },
        { provide: WEIGHTS_CLOCK, useValue: options.now ?? Date.now },
        { provide: WEIGHTS_LOGGER, useFactory: () => createLogger({ level: config.logLevel, name: 'weight-setter', format: config.logFormat }) },
        { provide: VALIDATOR_KEYPAIR, useFactory: () => loadValidatorKeypair(config.identity) },
        { provide: SUBTENSOR, inject: [REDIS], useFactory: (redis: Redis) => createSubtensor(config, redis) },
        {
          provide: SetterIdentity,
          inject: [SUBTENSOR, VALIDATOR_KEYPAIR],
          useFactory: (chain: SubtensorPort, keypair: KeyringPair) => new SetterIdentity(chain, keypair, config.chain.netuid, config.dryRun),
        },
        { provide: CoordinatorClient, useFactory: () => new CoordinatorClient({ baseUrl: config.coordinatorUrl, timeoutMs: config.httpTimeoutMs }) },
        {
          provide: OwnerLock,
          inject: [REDIS, VALIDATOR_KEYPAIR],
          useFactory: (redis: Redis, keypair: KeyringPair) => new OwnerLock(redis, OwnerLock.keyFor(config.redisKeyPrefix, keypair.address), config.lockTtlMs),
        },
        {
          provide: PassStatusStore,
          inject: [REDIS, VALIDATOR_KEYPAIR],
          useFactory: (redis: Redis, keypair: KeyringPair) => new PassStatusStore(redis, config.redisKeyPrefix, keypair.address),
        },
        WeightsPassService,
        SnapshotDigester,
        RevealWatchService,
        WeightsJobHandler,
        OwnershipService,
        StatusService,
      ],
    };
  }
}
