import { DynamicModule, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { DecoratedMethods } from '@rcs/events';
import { JobQueue } from './jobs/job-queue.service';
import { JobWorkers } from './jobs/job-workers';
import { QUEUE_MODULE_OPTIONS, QueueModuleAsyncOptions } from './queue.options';
import { JobHandlerExplorer } from './registry/job-handler.explorer';

/**
 * BullMQ for the app: a `JobQueue` producer available everywhere, and at boot one worker per
 * configured queue whose jobs are dispatched to `@OnJob` methods. Refuses to start on a job with
 * no handler or two, or a handler for an undeclared job (`JobRegistryError`).
 */
@Module({})
export class QueueModule {
  static forRootAsync(options: QueueModuleAsyncOptions): DynamicModule {
    return {
      module: QueueModule,
      global: true,
      imports: [DiscoveryModule, ...(options.imports ?? [])],
      providers: [
        {
          provide: QUEUE_MODULE_OPTIONS,
          inject: options.inject ?? [],
          useFactory: (...deps: unknown[]) => options.useFactory(...(deps as never[])),
        },
        DecoratedMethods,
        JobHandlerExplorer,
        JobQueue,
        JobWorkers,
      ],
      exports: [JobQueue, JobWorkers],
    };
  }
}
