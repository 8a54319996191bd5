import { DataSource } from 'typeorm';
import { EmbeddedPostgres } from '../embedded/embedded-postgres';
import { DatabaseLogger, defaultDatabaseLogger } from './database-logger';
import { EntityClassOrSchema, MigrationClass, postgresOptions } from './data-source-options';
import { runMigrationsLocked } from './run-migrations';
import { runPreparedUnnamed } from './sql-rows';

export interface OpenDatabaseOptions {
  /** Postgres URL; unset, null or empty starts the embedded server on `embeddedDir`. */
  url?: string | null;
  /** Data directory of the embedded server, e.g. `.data/coordinator`. */
  embeddedDir: string;
  entities: EntityClassOrSchema[];
  migrations: MigrationClass[];
  logger?: DatabaseLogger;
  /** Shows in `pg_stat_activity.application_name`. */
  applicationName?: string;
  /** Connections in the pg pool (default 10). */
  poolSize?: number;
  /**
   * Whether the hot statements (`queryPreparedRows`) are named prepared statements, planned once per
   * connection (default true). False for a pooler between the service and Postgres that cannot keep
   * them (PgBouncer in transaction mode before 1.21): they are then parsed and planned on every use.
   */
  preparedStatements?: boolean;
}

export interface OpenedDatabase {
  dataSource: DataSource;
  /** The embedded server when no URL was given, else null. */
  embedded: EmbeddedPostgres | null;
  /** Destroys the data source, then stops the embedded server; safe to call twice. */
  close(): Promise<void>;
}

/** Connects (starting the embedded server when no URL is set) and runs pending migrations. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<OpenedDatabase> {
  const logger = options.logger ?? defaultDatabaseLogger();
  const poolSize = options.poolSize ?? 10;
  const { url, embedded } = await resolveServer(options, logger, poolSize);
  const dataSource = new DataSource(
    postgresOptions({
      url,
      entities: options.entities,
      migrations: options.migrations,
      applicationName: options.applicationName,
      poolSize,
    }),
  );

  // The embedded server multiplexes every pooled connection onto its one session; a pooler may not keep names.
  if (embedded !== null || options.preparedStatements === false) runPreparedUnnamed(dataSource);

  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      try {
        if (dataSource.isInitialized) await dataSource.destroy();
      } finally {
        await embedded?.stop();
      }
    })();
    return closing;
  };

  try {
    await dataSource.initialize();
    const executed = await runMigrationsLocked(dataSource);
    logger.log(
      executed.length > 0
        ? `Ran ${executed.length} migration(s): ${executed.map((m) => m.name).join(', ')}`
        : `Schema up to date (${dataSource.migrations.length} migration(s))`,
    );
  } catch (error) {
    await close();
    throw error;
  }
  return { dataSource, embedded, close };
}

async function resolveServer(
  options: OpenDatabaseOptions,
  logger: DatabaseLogger,
  poolSize: number,
): Promise<{ url: string; embedded: EmbeddedPostgres | null }> {
  if (options.url) return { url: options.url, embedded: null };
  // Headroom above the pool for the migration lock session and a developer's psql.
  const embedded = await EmbeddedPostgres.start({ dataDir: options.embeddedDir, logger, maxConnections: poolSize + 8 });
  return { url: embedded.url, embedded };
}
