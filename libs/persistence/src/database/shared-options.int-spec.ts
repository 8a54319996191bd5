import { createTestDatabase, TestDatabase } from '@rcs/testing';
import schema from '../../test/fixtures/data-source';
import { Note } from '../../test/fixtures/note.entity';
import { pendingSchemaChanges } from '../schema/schema-diff';
import { sharedDataSourceOptions } from './data-source-options';

// The pattern app integration tests follow: a clone of the migrated template, opened like production.
describe('a test database from a migrated template with the shared options', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase({
      template: 'rcs_persistence_fixture_template',
      entities: schema.entities,
      migrations: schema.migrations,
      dataSourceOptions: sharedDataSourceOptions(),
    });
  });

  afterAll(async () => {
    await db.drop();
  });

  it('is at head and maps entities to snake_case columns', async () => {
    expect(await pendingSchemaChanges(db.dataSource)).toEqual({ up: [], down: [] });
    const saved = await db.dataSource.getRepository(Note).save({ title: 'from template' });
    const [row] = await db.dataSource.query<{ view_count: number }[]>('SELECT view_count FROM notes WHERE id = $1', [
      saved.id,
    ]);
    expect(row.view_count).toBe(0);
  });
});
