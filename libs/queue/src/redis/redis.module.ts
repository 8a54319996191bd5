import { DynamicModule, FactoryProvider, Inject, Module, ModuleMetadata, OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { closeRedis, createRedis, untilReady } from './redis';

/** How long the boot waits for Redis before the app starts without it (/readyz then says so). */
const BOOT_WAIT_MS = 5000;

/** Injection token of the service's shared Redis client (nonces, rate limits, caches; BullMQ opens its own); it fails fast. */
export const REDIS = Symbol('REDIS');

export interface RedisModuleAsyncOptions {
  imports?: ModuleMetadata['imports'];
  inject?: FactoryProvider['inject'];
  useFactory: (...deps: never[]) => { url: string; connectionName?: string };
}

@Module({})
export class RedisModule implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  static forRootAsync(options: RedisModuleAsyncOptions): DynamicModule {
    return {
      module: RedisModule,
      global: true,
      imports: options.imports ?? [],
      providers: [
        {
          provide: REDIS,
          inject: options.inject ?? [],
          useFactory: async (...deps: unknown[]) => {
            const { url, connectionName } = options.useFactory(...(deps as never[]));
            // Request paths must never wait on a Redis that is down: they get an error to answer 503 with.
            const redis = createRedis(url, { connectionName, failFast: true });
            await untilReady(redis, BOOT_WAIT_MS);
            return redis;
          },
        },
      ],
      exports: [REDIS],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await closeRedis(this.redis);
  }
}
