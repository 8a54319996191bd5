import type { DataSource, EntityManager } from 'typeorm';
import type { IsolationLevel } from 'typeorm/driver/types/IsolationLevel';

export type { IsolationLevel };

/**
 * Runs `fn` in a transaction and hands it the transaction's manager: every query inside must go
 * through that manager, never through an injected repository. Given a manager already inside a
 * transaction, it nests with a savepoint.
 */
export function inTransaction<T>(
  runner: DataSource | EntityManager,
  fn: (manager: EntityManager) => Promise<T>,
  isolation?: IsolationLevel,
): Promise<T> {
  return isolation ? runner.transaction(isolation, fn) : runner.transaction(fn);
}
