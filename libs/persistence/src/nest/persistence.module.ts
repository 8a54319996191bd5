import { DynamicModule, FactoryProvider, Inject, Module, ModuleMetadata, OnApplicationShutdown } from '@nestjs/common';
import { getDataSourceToken, getEntityManagerToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { OpenDatabaseOptions, OpenedDatabase, openDatabase } from '../database/open-database';
import { ReadReplicas } from '../replica/read-replicas';

/** Injection token of the `OpenedDatabase` (data source plus the embedded server, if any). */
export const OPENED_DATABASE = Symbol('OPENED_DATABASE');

/** The database, and the URLs of its streaming replicas for the reads `ReadReplicas` routes (none: all on the primary). */
export type PersistenceOptions = OpenDatabaseOptions & { replicaUrls?: string[] };

const PERSISTENCE_OPTIONS = Symbol('PERSISTENCE_OPTIONS');

export interface PersistenceModuleAsyncOptions {
  imports?: ModuleMetadata['imports'];
  inject?: FactoryProvider['inject'];
  useFactory: (...deps: never[]) => PersistenceOptions | Promise<PersistenceOptions>;
}

/**
 * Opens the database at boot (migrations included) and provides the default TypeORM `DataSource`
 * and `EntityManager` under @nestjs/typeorm's tokens, so `TypeOrmModule.forFeature`,
 * `@InjectRepository` and `@InjectDataSource` work unchanged. Closes it on shutdown.
 */
@Module({})
export class PersistenceModule implements OnApplicationShutdown {
  constructor(
    @Inject(OPENED_DATABASE) private readonly database: OpenedDatabase,
    private readonly replicas: ReadReplicas,
  ) {}

  static forRootAsync(options: PersistenceModuleAsyncOptions): DynamicModule {
    return {
      module: PersistenceModule,
      global: true,
      imports: options.imports ?? [],
      providers: [
        {
          provide: PERSISTENCE_OPTIONS,
          inject: options.inject ?? [],
          useFactory: (...deps: unknown[]) => options.useFactory(...(deps as never[])),
        },
        {
          provide: OPENED_DATABASE,
          inject: [PERSISTENCE_OPTIONS],
          useFactory: (persistence: PersistenceOptions) => openDatabase(persistence),
        },
        {
          provide: ReadReplicas,
          inject: [PERSISTENCE_OPTIONS, getDataSourceToken()],
          useFactory: (persistence: PersistenceOptions, dataSource: DataSource) =>
            new ReadReplicas(dataSource, {
              urls: persistence.replicaUrls ?? [],
              entities: persistence.entities,
              applicationName: persistence.applicationName,
              preparedStatements: persistence.preparedStatements,
            }),
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
      exports: [OPENED_DATABASE, getDataSourceToken(), getEntityManagerToken(), ReadReplicas],
    };
  }

  // After beforeApplicationShutdown, where queue workers finish the jobs that still use the database.
  async onApplicationShutdown(): Promise<void> {
    await this.replicas.close();
    await this.database.close();
  }
}
