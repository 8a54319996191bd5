import { DynamicModule, Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { ApiErrors, QUEUE_JOB_NAMES, QueueName } from '@rcs/contracts';
import { createHealthController, createLogger } from '@rcs/http';
import { QueueModule } from '@rcs/queue';
import type { RunnerStartConfig } from './config/config';
import { CoordinatorClient } from './coordinator/coordinator.client';
import { loadValidatorSigner, Public } from '@rcs/auth';
import { HealthController } from './health/health.controller';
import { JobProcessor } from './runner/job-processor';
import { ReplayWorker } from './runner/replay.worker';
import { ScanLoop } from './runner/scan-loop.service';
import { RUNNER_ACCELERATORS, RUNNER_CONFIG, RUNNER_LOGGER } from './runner/tokens';
import { createCoordinatorClient, createReplayPipeline } from './runner/wiring';

/** `run`: /healthz, /readyz, the scan loop, and the BullMQ `runner.replay` workers. */
@Module({})
export class AppModule {
  static forRoot(config: RunnerStartConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        QueueModule.forRootAsync({
          useFactory: () => ({
            redisUrl: config.redisUrl,
            prefix: `${config.redisKeyPrefix}:validator-runner`,
            queues: {
              [QueueName.Replay]: {
                jobNames: QUEUE_JOB_NAMES[QueueName.Replay],
                concurrency: config.concurrency,
                // Job data carries validator-private values: nothing stays in Redis once a job is done.
                defaultJobOptions: { removeOnComplete: true, removeOnFail: true, attempts: 1 },
              },
            },
          }),
        }),
      ],
      controllers: [createHealthController('validator-runner', '0.1.0', ['healthz'], Public(), ApiErrors()), HealthController],
      providers: [
        { provide: RUNNER_CONFIG, useValue: config },
        { provide: RUNNER_ACCELERATORS, useValue: config.accelerators },
        { provide: RUNNER_LOGGER, useFactory: () => createLogger({ level: config.logLevel, name: 'validator-runner', format: config.logFormat }) },
        {
          provide: CoordinatorClient,
          inject: [RUNNER_LOGGER],
          useFactory: async (logger: Logger) => createCoordinatorClient(config, await loadValidatorSigner(config.identity), logger, config.accelerators),
        },
        {
          provide: JobProcessor,
          inject: [CoordinatorClient, RUNNER_LOGGER],
          useFactory: (client: CoordinatorClient, logger: Logger) => new JobProcessor(createReplayPipeline(config, logger, config.accelerators, client.heldoutSource()), client, logger),
        },
        ReplayWorker,
        ScanLoop,
      ],
    };
  }
}
