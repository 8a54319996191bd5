import { openDatabase, pendingSchemaChanges, sharedDataSourceOptions } from '@rcs/persistence';
import { createScratchDatabase, expectNoSchemaDrift, ScratchDatabase, suiteResource } from '@rcs/testing';
import schema from '../src/data-source';
import { POOL_ENTITIES, POOL_MIGRATIONS } from '../src/database';

describe('pool database schema', () => {
  let scratch: ScratchDatabase;

  suiteResource(() => createScratchDatabase('pool_schema'), (resource) => resource.drop(), (made) => (scratch = made));

  it('migrates a fresh database to exactly what the entities declare (no pending schema change)', async () => {
    const db = await openDatabase({ url: scratch.url, embeddedDir: '', entities: POOL_ENTITIES, migrations: POOL_MIGRATIONS, applicationName: 'pool-schema-test' });
    try {
      expect(await pendingSchemaChanges(db.dataSource)).toEqual({ up: [], down: [] });
      const indexes = (await db.dataSource.query(`SELECT indexname FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1`)) as { indexname: string }[];
      expect(indexes.map((i) => i.indexname)).toEqual(
        expect.arrayContaining(['assignments_one_active_unique', 'assignments_one_lease_per_window_unique', 'evaluations_one_per_miner_unique', 'algorithms_dsl_unique']),
      );
    } finally {
      await db.close();
    }
  }, 60_000);

  it('entities declare exactly what the migrations create (constraint and index names included)', () =>
    expectNoSchemaDrift({ ...schema, dataSourceOptions: sharedDataSourceOptions() }), 60_000);
});
