import type { EntityManager } from 'typeorm';

/**
 * Runs an `UPDATE … RETURNING` and gives its rows. TypeORM's `query()` answers UPDATE and DELETE with
 * `[rows, rowCount]` (other statements with the rows), which is easy to misread as rows.
 */
export async function updateReturning<T>(manager: EntityManager, sql: string, parameters: unknown[]): Promise<T[]> {
  const result = (await manager.query(sql, parameters)) as [T[], number];
  return result[0];
}
