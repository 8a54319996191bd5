import type { EntityClassOrSchema, MigrationClass } from '../database/data-source-options';

/**
 * What an app's `src/data-source.ts` exports by default: its entities, its committed migrations
 * and the folder new migrations are written to. The app module and the migration CLI share it.
 */
export interface DatabaseSchema {
  entities: EntityClassOrSchema[];
  migrations: MigrationClass[];
  migrationsDir: string;
}

export function defineDatabaseSchema(schema: DatabaseSchema): DatabaseSchema {
  return schema;
}
