import { DataSource, Migration, MigrationExecutor } from 'typeorm';
import { withSessionLock } from './session-lock';

// Any constant works: advisory locks are scoped to the current database.
const MIGRATION_LOCK_ID = 0x72637301;

/**
 * Runs pending migrations, one transaction each, under a session advisory lock so that replicas
 * starting together apply each migration exactly once. Lock and migrations share one connection,
 * so a pool of one cannot deadlock.
 */
export function runMigrationsLocked(dataSource: DataSource): Promise<Migration[]> {
  return withSessionLock(dataSource, MIGRATION_LOCK_ID, (runner) => {
    const executor = new MigrationExecutor(dataSource, runner);
    executor.transaction = 'each';
    return executor.executePendingMigrations();
  });
}
