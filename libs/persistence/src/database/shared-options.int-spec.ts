import type { TestDatabase } from '@rcs/testing';
import { createFixtureDatabase } from '../../test/fixtures/fixture-database';
import { Note } from '../../test/fixtures/note.entity';
import { pendingSchemaChanges } from '@rcs/schema-diff';

// The pattern app integration tests follow: a clone of the migrated template, opened like production.
describe('a test database from a migrated template with the shared options', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createFixtureDatabase();
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
