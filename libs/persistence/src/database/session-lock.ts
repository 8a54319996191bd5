import type { DataSource, QueryRunner } from 'typeorm';

/**
 * Runs `work` holding the Postgres session advisory lock `lockId` (scoped to the database) on a connection of
 * its own, so that the processes of a service (replicas) run it one at a time; a caller waits for the holder.
 * The lock is released when `work` settles, or by Postgres when the process dies with its connection. `work`
 * gets that connection (work on it cannot wait for a second one) and may use others. The embedded database is one
 * session, shared by all its connections: there the lock excludes nothing.
 */
export async function withSessionLock<T>(dataSource: DataSource, lockId: number, work: (runner: QueryRunner) => Promise<T>): Promise<T> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [lockId]);
    try {
      return await work(runner);
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [lockId]);
    }
  } finally {
    await runner.release();
  }
}
