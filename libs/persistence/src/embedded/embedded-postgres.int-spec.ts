import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runTs } from '../../test/run-ts';

interface RoundTrip {
  firstStartMs: number;
  restartMs: number;
  secondOpenError: string | null;
  preparedCounts: number[];
  pendingUp: number;
  rows: { title: string; viewCount: number }[];
  migrations: string[];
  logs: string[];
}

describe('embedded Postgres (PGlite over the socket server, in a child process)', () => {
  let dir: string;
  let result: RoundTrip;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'rcs-embedded-'));
    const run = await runTs('libs/persistence/test/embedded-roundtrip.ts', [path.join(dir, 'coordinator')]);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    result = JSON.parse(run.stdout) as RoundTrip;
  }, 60_000);

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('runs the migrations once and keeps the data across a restart', () => {
    expect(result.migrations).toEqual(['CreateNotes1795307593324', 'AddNoteViewCount1795307600532']);
    expect(result.logs.filter((l) => l.startsWith('Ran '))).toEqual([
      'Ran 2 migration(s): CreateNotes1795307593324, AddNoteViewCount1795307600532',
    ]);
    expect(result.logs).toContain('Schema up to date (2 migration(s))');
    expect(result.rows.map((r) => r.title)).toEqual(['a', 'b', 'c', 'd', 'kept']);
  });

  it('rolls back a transaction that throws and serialises concurrent transactions', () => {
    expect(result.rows.find((r) => r.title === 'rolled back')).toBeUndefined();
    expect(result.rows.filter((r) => r.viewCount === 1).map((r) => r.title)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('runs prepared statements through several connections of its one session', () => {
    // Four notes a … d and "kept": three transactions ran it twice each, the pool once.
    expect(result.preparedCounts).toEqual([5, 5, 5, 5, 5, 5, 5]);
  });

  it('refuses a second server on a data directory that is in use', () => {
    expect(result.secondOpenError).toBe('EmbeddedDatabaseLockedError');
  });

  it('introspects the schema through TypeORM (what the migration CLI relies on)', () => {
    expect(result.pendingUp).toBe(0);
  });

  it('writes the data under the directory and releases its pid file on close', async () => {
    expect((await stat(path.join(dir, 'coordinator', 'PG_VERSION'))).isFile()).toBe(true);
    await expect(stat(path.join(dir, 'coordinator.pid'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('reports its start time (first start runs initdb)', () => {
    process.stdout.write(`embedded start: first ${result.firstStartMs} ms, restart ${result.restartMs} ms\n`);
    expect(result.firstStartMs).toBeGreaterThan(0);
    expect(result.restartMs).toBeLessThan(result.firstStartMs);
  });
});
