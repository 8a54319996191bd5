import path from 'node:path';
import { defineDatabaseSchema } from '@rcs/persistence';
import { POOL_ENTITIES, POOL_MIGRATIONS } from './database';

/** The pool schema for the migration CLI (`libs/persistence/src/cli/migration.ts`). */
export default defineDatabaseSchema({
  entities: POOL_ENTITIES,
  migrations: POOL_MIGRATIONS,
  migrationsDir: path.join(__dirname, 'migrations'),
});
