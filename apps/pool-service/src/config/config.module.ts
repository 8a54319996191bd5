import { DynamicModule, Global, Module } from '@nestjs/common';
import { PoolServiceConfig } from './config';

export const POOL_CONFIG = Symbol('POOL_CONFIG');

@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: PoolServiceConfig): DynamicModule {
    return { module: ConfigModule, providers: [{ provide: POOL_CONFIG, useValue: config }], exports: [POOL_CONFIG] };
  }
}
