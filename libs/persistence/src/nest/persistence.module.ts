import { DynamicModule, FactoryProvider, Inject, Module, ModuleMetadata, OnApplicationShutdown } from '@nestjs/common';
import { getDataSourceToken, getEntityManagerToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { OpenDatabaseOptions, OpenedDatabase, openDatabase } from '../database/open-database';

/** Injection token of the `OpenedDatabase` (data source plus the embedded server, if any). */
export const OPENED_DATABASE = Symbol('OPENED_DATABASE');

export interface PersistenceModuleAsyncOptions {
  imports?: ModuleMetadata['imports'];
  inject?: FactoryProvider['inject'];
  useFactory: (...deps: never[]) => OpenDatabaseOptions | Promise<OpenDatabaseOptions>;
}

/**
 * Opens the database at boot (migrations included) and provides the default TypeORM `DataSource`
 * and `EntityManager` under @nestjs/typeorm's tokens, so `TypeOrmModule.forFeature`,
 * `@InjectRepository` and `@InjectDataSource` work unchanged. Closes it on shutdown.
 */
@Module({})
export class PersistenceModule implements OnApplicationShutdown {
  constructor(@Inject(OPENED_DATABASE) private readonly database: OpenedDatabase) {}

  static forRootAsync(options: PersistenceModuleAsyncOptions): DynamicModule {
    return {
      module: PersistenceModule,
      global: true,
      imports: options.imports ?? [],
      providers: [
        {
          provide: OPENED_DATABASE,
          inject: options.inject ?? [],
          useFactory: async (...deps: unknown[]) => openDatabase(await options.useFactory(...(deps as never[]))),
        },
        {
          provide: getDataSourceToken(),
          inject: [OPENED_DATABASE],
          useFactory: (database: OpenedDatabase) => database.dataSource,
        },
        {
          provide: getEntityManagerToken(),
          inject: [getDataSourceToken()],
          useFactory: (dataSource: DataSource) => dataSource.manager,
        },
      ],
      exports: [OPENED_DATABASE, getDataSourceToken(), getEntityManagerToken()],
    };
  }

  // After beforeApplicationShutdown, where queue workers finish the jobs that still use the database.
  async onApplicationShutdown(): Promise<void> {
    await this.database.close();
  }
}
