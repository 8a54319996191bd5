import path from 'node:path';
import { defineDatabaseSchema } from '@rcs/persistence';
import { COORDINATOR_ENTITIES, COORDINATOR_MIGRATIONS } from './database';

/**
 * The coordinator's database schema: its entities, its committed migrations and where new ones are
 * written. The migration CLI reads this file (libs/persistence/README.md, "Migrations").
 */
export default defineDatabaseSchema({
  entities: COORDINATOR_ENTITIES,
  migrations: COORDINATOR_MIGRATIONS,
  migrationsDir: path.join(__dirname, 'migrations'),
});
