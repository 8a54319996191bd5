import { QueryFailedError } from 'typeorm';
import type { TestDatabase } from '@rcs/testing';
import { createFixtureDatabase } from '../../test/fixtures/fixture-database';
import { isUniqueViolation } from './postgres-errors';
import { preparedStatement, queryPreparedRows, textColumn } from './sql-rows';
import { inTransaction } from './transaction';

describe('queryPreparedRows', () => {
  let db: TestDatabase;
  const insert = preparedStatement('test_notes_insert', 'INSERT INTO notes (id, title) VALUES ($1, $2) RETURNING id, title');
  const count = preparedStatement('test_notes_count', 'SELECT count(*)::text AS n FROM notes');
  const countNotes = async (): Promise<string> => (await queryPreparedRows(db.dataSource.manager, count, [], (row) => textColumn(row, 'n')))[0];

  beforeAll(async () => {
    db = await createFixtureDatabase();
  });

  afterAll(async () => {
    await db.drop();
  });

  it('runs on the pool, prepared on each connection under its name', async () => {
    const id = '00000000-0000-4000-8000-000000000001';
    const rows = await queryPreparedRows(db.dataSource.manager, insert, [id, 'first'], (row) => textColumn(row, 'title'));
    expect(rows).toEqual(['first']);
    await Promise.all(Array.from({ length: 20 }, () => countNotes()));
    // On a connection that ran it, it is held prepared under its name.
    await inTransaction(db.dataSource, async (manager) => {
      await queryPreparedRows(manager, count, [], (row) => row);
      await queryPreparedRows(manager, count, [], (row) => row);
      expect(await manager.query(`SELECT name, statement FROM pg_prepared_statements WHERE name = 'test_notes_count'`)).toEqual([
        { name: 'test_notes_count', statement: count.text },
      ]);
    });
  });

  it("runs on the transaction's own connection: rolled back with it", async () => {
    const before = await countNotes();
    await expect(
      inTransaction(db.dataSource, async (manager) => {
        await queryPreparedRows(manager, insert, ['00000000-0000-4000-8000-000000000002', 'rolled back'], (row) => row);
        expect(await queryPreparedRows(manager, count, [], (row) => textColumn(row, 'n'))).toEqual([String(Number(before) + 1)]);
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await countNotes()).toBe(before);
  });

  it('fails as TypeORM queries fail, so constraint checks read it the same way', async () => {
    await queryPreparedRows(db.dataSource.manager, insert, ['00000000-0000-4000-8000-000000000003', 'once'], (row) => row);
    const failure = await queryPreparedRows(db.dataSource.manager, insert, ['00000000-0000-4000-8000-000000000004', 'once'], (row) => row).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(QueryFailedError);
    expect(isUniqueViolation(failure, 'uq_notes_title')).toBe(true);
  });

  it('refuses a second text under a name already given', () => {
    expect(preparedStatement('test_notes_count', 'SELECT count(*)::text AS n FROM notes')).toEqual(count);
    expect(() => preparedStatement('test_notes_count', 'SELECT 1')).toThrow('already defined with another text');
  });
});
