import { createScratchDatabase, ScratchDatabase } from '@rcs/testing';
import schema from '../../test/fixtures/data-source';
import { Note } from '../../test/fixtures/note.entity';
import { NoteWithColor } from '../../test/fixtures/note-with-color.entity';
import { pendingSchemaChanges } from '@rcs/schema-diff';
import { databaseReady } from './database-ready';
import { OpenDatabaseOptions, OpenedDatabase, openDatabase } from './open-database';
import { isUniqueViolation, postgresErrorCode } from './postgres-errors';
import { preparedStatement, queryPreparedRows, textColumn } from './sql-rows';
import { inTransaction } from './transaction';

class Rollback extends Error {}

describe('openDatabase against Postgres', () => {
  let scratch: ScratchDatabase;
  let logs: string[];
  let options: OpenDatabaseOptions;
  let db: OpenedDatabase;

  beforeAll(async () => {
    scratch = await createScratchDatabase('persistence_open');
    logs = [];
    options = {
      url: scratch.url,
      embeddedDir: 'unused-when-a-url-is-set',
      entities: schema.entities,
      migrations: schema.migrations,
      logger: { log: (m) => logs.push(m), warn: (m) => logs.push(m) },
      applicationName: 'persistence-int-spec',
    };
    // Two replicas booting together: the advisory lock lets exactly one apply each migration.
    const [a, b] = await Promise.all([openDatabase(options), openDatabase(options)]);
    await b.close();
    db = a;
  });

  afterAll(async () => {
    await db.close();
    await scratch.drop();
  });

  it('runs every migration exactly once and records it', async () => {
    const recorded = await db.dataSource.query<{ name: string }[]>('SELECT name FROM migrations ORDER BY id');
    expect(recorded.map((r) => r.name)).toEqual(['CreateNotes1795307593324', 'AddNoteViewCount1795307600532']);
    expect(logs.filter((l) => l.startsWith('Ran '))).toHaveLength(1);
    expect(logs).toContain('Schema up to date (2 migration(s))');
  });

  it('runs nothing when reopened at head', async () => {
    const again = await openDatabase(options);
    await again.close();
    expect(logs.filter((l) => l.startsWith('Ran '))).toHaveLength(1);
    expect(logs.filter((l) => l === 'Schema up to date (2 migration(s))')).toHaveLength(2);
  });

  it('maps camelCase properties to snake_case columns', async () => {
    const columns = await db.dataSource.query<{ column_name: string }[]>(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'notes' ORDER BY column_name`,
    );
    expect(columns.map((c) => c.column_name)).toEqual(['created_at', 'id', 'title', 'view_count']);
    const saved = await db.dataSource.getRepository(Note).save({ title: 'snake' });
    expect(saved.viewCount).toBe(0);
    expect(saved.createdAt).toBeInstanceOf(Date);
  });

  it('leaves nothing written when the transaction throws', async () => {
    await expect(
      inTransaction(db.dataSource, async (manager) => {
        await manager.save(Note, { title: 'never' });
        throw new Rollback();
      }),
    ).rejects.toBeInstanceOf(Rollback);
    expect(await db.dataSource.getRepository(Note).countBy({ title: 'never' })).toBe(0);
  });

  it('nests with a savepoint when given a transaction manager', async () => {
    await inTransaction(
      db.dataSource,
      async (manager) => {
        await manager.save(Note, { title: 'outer' });
        await expect(
          inTransaction(manager, async (inner) => {
            await inner.save(Note, { title: 'inner' });
            throw new Rollback();
          }),
        ).rejects.toBeInstanceOf(Rollback);
      },
      'SERIALIZABLE',
    );
    const titles = (await db.dataSource.getRepository(Note).find()).map((n) => n.title);
    expect(titles).toContain('outer');
    expect(titles).not.toContain('inner');
  });

  it('recognises unique violations by constraint', async () => {
    const notes = db.dataSource.getRepository(Note);
    await notes.save({ title: 'twice' });
    const error: unknown = await notes.insert({ title: 'twice' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(postgresErrorCode(error)).toBe('23505');
    expect(isUniqueViolation(error)).toBe(true);
    expect(isUniqueViolation(error, 'uq_notes_title')).toBe(true);
    expect(isUniqueViolation(error, 'other')).toBe(false);
    expect(isUniqueViolation(new Rollback())).toBe(false);
  });

  it('finds no pending schema change when migrations cover the entities, and lists the gap otherwise', async () => {
    expect(await pendingSchemaChanges(db.dataSource)).toEqual({ up: [], down: [] });
    const ahead = await openDatabase({ ...options, entities: [NoteWithColor] });
    try {
      expect(await pendingSchemaChanges(ahead.dataSource)).toEqual({
        up: [{ query: 'ALTER TABLE "notes" ADD "color" text' }],
        down: [{ query: 'ALTER TABLE "notes" DROP COLUMN "color"' }],
      });
    } finally {
      await ahead.close();
    }
  });

  it('reports readiness, and not ready once closed', async () => {
    expect(await databaseReady(db.dataSource)).toEqual({ ok: true });
    const other = await openDatabase(options);
    await other.close();
    await other.close();
    expect(await databaseReady(other.dataSource)).toEqual({ ok: false, error: 'data source is not initialized' });
  });

  it('prepares the hot statements under their names, unless told not to (a pooler that cannot keep them)', async () => {
    const titles = preparedStatement('open_database_note_titles', 'SELECT title FROM notes ORDER BY title LIMIT 1');
    const preparedOnItsConnection = (opened: OpenedDatabase): Promise<unknown[]> =>
      inTransaction(opened.dataSource, async (manager) => {
        expect(await queryPreparedRows(manager, titles, [], (row) => textColumn(row, 'title'))).toHaveLength(1);
        return manager.query(`SELECT name FROM pg_prepared_statements WHERE name = $1`, [titles.name]);
      });
    expect(await preparedOnItsConnection(db)).toEqual([{ name: titles.name }]);
    const unnamed = await openDatabase({ ...options, preparedStatements: false });
    try {
      expect(await preparedOnItsConnection(unnamed)).toEqual([]);
    } finally {
      await unnamed.close();
    }
  });

  it('answers ready when the process itself, not the database, was busy past the deadline (issue 37)', async () => {
    const probe = databaseReady(db.dataSource, 500);
    // One turn of the loop sends the probe; then a synchronous stretch of CPU work (as a rollover's
    // tree build is) longer than the deadline, during which the answer arrives unread.
    await new Promise((resolve) => setImmediate(resolve));
    const busyUntil = Date.now() + 1500;
    let spins = 0;
    while (Date.now() < busyUntil) spins += 1;
    expect(spins).toBeGreaterThan(0);
    expect(await probe).toEqual({ ok: true });
  });

  it('answers not ready when the probe outlives its deadline', async () => {
    const single = await openDatabase({ ...options, poolSize: 1 });
    try {
      // Holds the only pooled connection, so the probe queues behind it like behind a hung server.
      const busy = single.dataSource.query('SELECT pg_sleep(1)');
      expect(await databaseReady(single.dataSource, 50)).toEqual({ ok: false, error: 'no answer within 50 ms' });
      await busy;
    } finally {
      await single.close();
    }
  });
});
