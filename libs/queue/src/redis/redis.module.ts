import { DynamicModule, FactoryProvider, Inject, Module, ModuleMetadata, OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { closeRedis, createRedis } from './redis';

/** Injection token of the service's shared Redis client (nonces, rate limits, caches; BullMQ opens its own). */
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
          useFactory: (...deps: unknown[]) => {
            const { url, connectionName } = options.useFactory(...(deps as never[]));
            return createRedis(url, { connectionName });
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
