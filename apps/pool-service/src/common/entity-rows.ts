import type { DeepPartial, EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';

/**
 * A raw row (`SELECT *`, `RETURNING *`) as its entity: each column's value, as the driver read it,
 * under the column's property; other fields of the row are left out and no relation is loaded.
 */
export function entityFromRow<T extends ObjectLiteral>(manager: EntityManager, entity: EntityTarget<T>, row: Record<string, unknown>): T {
  const values: Record<string, unknown> = {};
  for (const column of manager.connection.getMetadata(entity).columns) {
    if (!column.isVirtual && column.databaseName in row) values[column.propertyName] = row[column.databaseName];
  }
  return manager.create(entity, values as DeepPartial<T>);
}
