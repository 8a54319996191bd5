import { createHash } from 'node:crypto';
import { inTransaction } from '@rcs/persistence';
import { suiteResource, type TestDatabase } from '@rcs/testing';
import { AlgorithmsRepository } from '../src/algorithms/algorithms.repository';
import { dslHash } from '../src/algorithms/dsl';
import { CanonicalDslHash1795711439859 } from '../src/migrations/1795711439859-canonical-dsl-hash';
import { createPoolTestDatabase } from './support/harness';

/** The hash the pool stored before the canonical form: trimmed lines, comments and blank lines dropped. */
function storedBefore(dsl: string): string {
  const normalised = dsl
    .split(/\r\n|\r|\n/)
    .map((line) => line.replace(/(#|\/\/).*$/, '').trim())
    .filter((line) => line.length > 0)
    .join('\n');
  return createHash('sha256').update(normalised, 'utf8').digest('hex');
}

/** The migration that recomputes `dsl_hash` on the canonical form (DECISIONS.md §11), run on rows as stored before it. */
describe('migration CanonicalDslHash1795711439859', () => {
  let db: TestDatabase;
  const query = <T>(sql: string, params: unknown[] = []): Promise<T[]> => db.dataSource.query(sql, params);

  suiteResource(() => createPoolTestDatabase(), (resource) => resource.drop(), (made) => (db = made));

  async function migrate(): Promise<void> {
    const runner = db.dataSource.createQueryRunner();
    try {
      await runner.startTransaction();
      await new CanonicalDslHash1795711439859().up(runner);
      await runner.commitTransaction();
    } finally {
      await runner.release();
    }
  }

  async function insertAsBefore(taskType: string, dsl: string, age: string): Promise<number> {
    const rows = await query<{ id: number }>(
      `INSERT INTO algorithms (task_type, algorithm_dsl, dsl_hash, input_dim, parent_ids, bar_parent_ids, source, status, created_at)
       VALUES ($1, $2, $3, 16, '{}', '{}', 'seed', 'pending', now() - $4::interval) RETURNING id`,
      [taskType, dsl, storedBefore(dsl), age],
    );
    return rows[0].id;
  }

  const hashes = async (ids: number[]): Promise<string[]> =>
    (await query<{ id: number; dsl_hash: string }>(`SELECT id, dsl_hash FROM algorithms WHERE id = ANY($1::int[])`, [ids]))
      .sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id))
      .map((row) => row.dsl_hash);

  it('gives each row its canonical hash; of rows it makes equal the oldest keeps it and the others a distinct one; nothing is deleted', async () => {
    // Equal once canonical; the newer one's old hash is the older one's new hash, so a one-step rewrite would collide.
    const older = await insertAsBefore('mig_a', 's1 = 2.0', '3 minutes');
    const newer = await insertAsBefore('mig_a', 's1=2', '2 minutes');
    const newest = await insertAsBefore('mig_a', 's1 = 2  # two\ns8 = s8', '1 minute');
    // The same text in another task type is no duplicate.
    const elsewhere = await insertAsBefore('mig_b', 's1=2', '1 minute');
    // The old form dropped the section markers, so this one held the hash its variant below needs.
    const predict = await insertAsBefore('mig_a', '# predict:\ns1 = s0\ns3 = s1\n# learn:\nv1 = v0', '1 minute');
    const ids = [older, newer, newest, elsewhere, predict];

    await migrate();

    const canonical = dslHash('s1 = 2');
    expect(await hashes(ids)).toEqual([
      canonical,
      `${canonical}:${newer}`,
      `${canonical}:${newest}`,
      canonical,
      dslHash('# predict:\ns1 = s0\ns3 = s1\n# learn:\nv1 = v0'),
    ]);
    expect((await query<{ n: number }>(`SELECT count(*)::int AS n FROM algorithms WHERE id = ANY($1::int[])`, [ids]))[0].n).toBe(5);

    // Run again: the same hashes.
    const once = await hashes(ids);
    await migrate();
    expect(await hashes(ids)).toEqual(once);

    // A new spelling of the form is the oldest row's duplicate; the statement moved to `# learn:` is new.
    const insert = (algorithmDsl: string) =>
      inTransaction(db.dataSource, (manager) => new AlgorithmsRepository().insert(manager, { taskType: 'mig_a', algorithmDsl, inputDim: 16, parentIds: [], barParentIds: [], authorHotkey: null, authorOwner: null }));
    expect(await insert('s1 = 2.000')).toBeNull();
    expect(await insert('# predict:\ns1 = s0\n# learn:\ns3 = s1\nv1 = v0')).toEqual(expect.any(Number));
  });
});
