import type { EntitySchema, MigrationInterface } from 'typeorm';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';
import { SnakeNamingStrategy } from '../naming/snake-naming.strategy';

export type EntityClassOrSchema = (abstract new (...args: never[]) => unknown) | EntitySchema;
export type MigrationClass = new () => MigrationInterface;

/** The options every service data source shares, whatever server it points at. */
export type SharedDataSourceOptions = Pick<
  PostgresConnectionOptions,
  'namingStrategy' | 'synchronize' | 'migrationsRun' | 'uuidExtension' | 'installExtensions' | 'logging'
>;

export function sharedDataSourceOptions(): SharedDataSourceOptions {
  return {
    namingStrategy: new SnakeNamingStrategy(),
    // The schema comes from committed migrations only.
    synchronize: false,
    migrationsRun: false,
    // gen_random_uuid() is built into Postgres 13+ and PGlite, so uuid defaults need no extension.
    uuidExtension: 'pgcrypto',
    installExtensions: false,
    logging: false,
  };
}

/** Bound on opening one connection to the database server. */
export const CONNECT_TIMEOUT_MS = 5000;

export interface PostgresOptionsInput {
  url: string;
  entities: EntityClassOrSchema[];
  migrations: MigrationClass[];
  applicationName?: string;
  poolSize?: number;
}

export function postgresOptions(input: PostgresOptionsInput): PostgresConnectionOptions {
  return {
    type: 'postgres',
    url: input.url,
    entities: input.entities,
    migrations: input.migrations,
    applicationName: input.applicationName,
    poolSize: input.poolSize,
    // A server that does not answer (partitioned, overloaded) fails a request in bounded time, not after TCP gives up.
    connectTimeoutMS: CONNECT_TIMEOUT_MS,
    ...sharedDataSourceOptions(),
  };
}
