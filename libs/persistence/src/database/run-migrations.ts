import { DataSource, Migration, MigrationExecutor } from 'typeorm';

// Any constant works: advisory locks are scoped to the current database.
const MIGRATION_LOCK_ID = 0x72637301;

/**
 * Runs pending migrations, one transaction each, under a session advisory lock so that replicas
 * starting together apply each migration exactly once. Lock and migrations share one connection,
 * so a pool of one cannot deadlock.
 */
export async function runMigrationsLocked(dataSource: DataSource): Promise<Migration[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    try {
      const executor = new MigrationExecutor(dataSource, runner);
      executor.transaction = 'each';
      return await executor.executePendingMigrations();
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
    }
  } finally {
    await runner.release();
  }
}
