/**
 * Child-process check of the embedded server (see run-ts.ts): start PGlite in a directory, migrate,
 * write, close, reopen, read back. Prints one JSON line for embedded-postgres.int-spec.ts.
 */
import { EntityManager } from 'typeorm';
import { inTransaction, intColumn, OpenDatabaseOptions, openDatabase, pendingSchemaChanges, preparedStatement, queryPreparedRows } from '../src';
import schema from './fixtures/data-source';
import { Note } from './fixtures/note.entity';

class Rollback extends Error {}

async function main(dataDir: string): Promise<void> {
  const logs: string[] = [];
  const options: OpenDatabaseOptions = {
    url: null,
    embeddedDir: dataDir,
    entities: schema.entities,
    migrations: schema.migrations,
    logger: { log: (m) => logs.push(m), warn: (m) => logs.push(m) },
  };

  const first = await openDatabase(options);
  const secondOpenError = await openDatabase(options).then(
    () => null,
    (error: Error) => error.name,
  );
  const notes = first.dataSource.getRepository(Note);
  await notes.save({ title: 'kept' });
  await inTransaction(first.dataSource, async (manager) => {
    await manager.save(Note, { title: 'rolled back' });
    throw new Rollback();
  }).catch((error: unknown) => {
    if (!(error instanceof Rollback)) throw error;
  });
  // Transactions on several pooled connections at once: the socket server multiplexes one session.
  await Promise.all(
    ['a', 'b', 'c', 'd'].map((title) =>
      inTransaction(first.dataSource, async (manager: EntityManager) => {
        await manager.save(Note, { title });
        await manager.increment(Note, { title }, 'viewCount', 1);
      }),
    ),
  );
  // A prepared statement through several pooled connections (each transaction holds its own) and the pool:
  // the connections share the embedded server's one session, where a name prepared once already exists.
  const countNotes = preparedStatement('roundtrip_count_notes', 'SELECT count(*)::int AS n FROM notes');
  const count = (manager: EntityManager): Promise<number[]> => queryPreparedRows(manager, countNotes, [], (row) => intColumn(row, 'n'));
  const preparedCounts = (
    await Promise.all([
      ...[1, 2, 3].map(() => inTransaction(first.dataSource, async (manager: EntityManager) => [...(await count(manager)), ...(await count(manager))])),
      count(first.dataSource.manager),
    ])
  ).flat();
  const pendingUp = (await pendingSchemaChanges(first.dataSource)).up.length;
  const firstStartMs = first.embedded?.startupMs;
  await first.close();

  const second = await openDatabase(options);
  const rows = await second.dataSource.getRepository(Note).find({ order: { title: 'ASC' } });
  const migrations = await second.dataSource.query<{ name: string }[]>('SELECT name FROM migrations ORDER BY id');
  const restartMs = second.embedded?.startupMs;
  await second.close();

  console.log(
    JSON.stringify({
      firstStartMs,
      restartMs,
      secondOpenError,
      preparedCounts,
      pendingUp,
      rows: rows.map((n) => ({ title: n.title, viewCount: n.viewCount })),
      migrations: migrations.map((m) => m.name),
      logs,
    }),
  );
}

main(process.argv[2]).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
