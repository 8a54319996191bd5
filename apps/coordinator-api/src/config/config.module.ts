import { DynamicModule, Global, Module } from '@nestjs/common';
import { CoordinatorConfig } from './config';

export const COORDINATOR_CONFIG = Symbol('COORDINATOR_CONFIG');

@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: CoordinatorConfig): DynamicModule {
    return {
      module: ConfigModule,
      providers: [{ provide: COORDINATOR_CONFIG, useValue: config }],
      exports: [COORDINATOR_CONFIG],
    };
  }
}
