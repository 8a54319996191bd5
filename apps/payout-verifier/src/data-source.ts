import path from 'node:path';
import { defineDatabaseSchema } from '@rcs/persistence';
import { VERIFIER_ENTITIES, VERIFIER_MIGRATIONS } from './database';

/** The payout verifier's schema for the migration CLI (`libs/persistence/src/cli/migration.ts`). */
export default defineDatabaseSchema({
  entities: VERIFIER_ENTITIES,
  migrations: VERIFIER_MIGRATIONS,
  migrationsDir: path.join(__dirname, 'migrations'),
});
