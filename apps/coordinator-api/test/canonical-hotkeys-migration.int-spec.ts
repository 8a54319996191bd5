import { encodeAddress } from '@polkadot/util-crypto';
import { SubmissionStatus } from '@rcs/contracts';
import { suiteResource, type TestDatabase } from '@rcs/testing';
import { CanonicalHotkeys1764028800000, HOTKEY_COLUMNS } from '../src/migrations/1764028800000-canonical-hotkeys';
import { createCoordinatorTestDatabase } from './harness';
import { insertSubmission, insertTask, insertWorkItem } from './support/competition-rows';

const key = (fill: number, prefix = 42): string => encodeAddress(new Uint8Array(32).fill(fill), prefix);

/**
 * The migration that rewrites stored hotkeys canonically (DECISIONS.md §2 Identity), run on rows as
 * the coordinator stored them before: spelled as each client sent them.
 */
describe('migration CanonicalHotkeys1764028800000', () => {
  let db: TestDatabase;
  const query = <T>(sql: string, params: unknown[] = []): Promise<T[]> => db.dataSource.query(sql, params);

  suiteResource(() => createCoordinatorTestDatabase(), (resource) => resource.drop(), (made) => (db = made));

  async function migrate(): Promise<void> {
    const runner = db.dataSource.createQueryRunner();
    try {
      await runner.startTransaction();
      await new CanonicalHotkeys1764028800000().up(runner);
      await runner.commitTransaction();
    } finally {
      await runner.release();
    }
  }

  it('rewrites every hotkey column, keeps the oldest active claim and the oldest evaluation of one key', async () => {
    const task = await insertTask(db);
    const item = await insertWorkItem(db, task.id);
    const insertClaim = async (hotkey: string, age: string, workItemId: string | null = null): Promise<string> => {
      const rows = await query<{ id: string }>(
        `INSERT INTO claims (task_id, work_item_id, miner_hotkey, claim_description, status, expires_at, created_at)
         VALUES ($1, $2, $3, 'spelling', 'active', now() + interval '1 hour', now() - $4::interval) RETURNING id`,
        [task.id, workItemId, hotkey, age],
      );
      return rows[0].id;
    };
    // One miner (key 1) holds two active claims on the task under two spellings; the newer holds a work item.
    const older = await insertClaim(key(1, 2), '2 minutes');
    const newer = await insertClaim(key(1, 7), '1 minute', item);
    await query(`UPDATE work_items SET status = 'claimed', claim_id = $2 WHERE id = $1`, [item, newer]);
    // Key 3 under prefix 0 also has an active claim: nothing collides, it is only respelled.
    const lone = await insertClaim(key(3, 0), '1 minute');

    const submission = await insertSubmission(db, { taskId: task.id, minerHotkey: key(1, 2), proposedIdea: 'idea' });
    const evaluate = (hotkey: string, age: string) =>
      query<{ id: string }>(
        `INSERT INTO peer_evaluations (submission_id, task_id, evaluator_hotkey, status, created_at)
         VALUES ($1, $2, $3, 'accepted', now() - $4::interval) RETURNING id`,
        [submission, task.id, hotkey, age],
      );
    const [firstEvaluation] = await evaluate(key(2, 2), '2 minutes');
    await evaluate(key(2, 7), '1 minute');
    await query(
      `INSERT INTO idea_rewards (task_id, idea_submission_id, improved_submission_id, proposer_hotkey, implementer_hotkey,
                                 metric_name, improved_metric_value)
       VALUES ($1, $2, $2, $3, $4, 'loss', 0.5)`,
      [task.id, submission, key(1, 2), key(2, 7)],
    );

    await migrate();

    const claims = await query<{ id: string; status: string; miner_hotkey: string }>(
      `SELECT id, status, miner_hotkey FROM claims WHERE id = ANY($1) ORDER BY created_at`,
      [[older, newer, lone]],
    );
    expect(claims).toEqual([
      { id: older, status: 'active', miner_hotkey: key(1) },
      { id: newer, status: 'expired', miner_hotkey: key(1) },
      { id: lone, status: 'active', miner_hotkey: key(3) },
    ]);
    expect(await query(`SELECT status, claim_id FROM work_items WHERE id = $1`, [item])).toEqual([{ status: 'open', claim_id: null }]);
    expect(await query(`SELECT id, evaluator_hotkey FROM peer_evaluations WHERE submission_id = $1`, [submission])).toEqual([
      { id: firstEvaluation.id, evaluator_hotkey: key(2) },
    ]);
    expect(await query(`SELECT proposer_hotkey, implementer_hotkey FROM idea_rewards WHERE task_id = $1`, [task.id])).toEqual([
      { proposer_hotkey: key(1), implementer_hotkey: key(2) },
    ]);
    expect(await query(`SELECT miner_hotkey FROM submissions WHERE id = $1`, [submission])).toEqual([{ miner_hotkey: key(1) }]);

    // Nothing is left in another spelling, in any hotkey column.
    for (const [table, column] of HOTKEY_COLUMNS) {
      const rows = await query<{ hotkey: string }>(`SELECT DISTINCT ${column} AS hotkey FROM ${table} WHERE ${column} IS NOT NULL`);
      for (const { hotkey } of rows) expect({ table, column, hotkey }).toEqual({ table, column, hotkey: expect.stringMatching(/^5/) });
    }
  });

  it("deletes a miner's evaluation of his own pending submission under another spelling, keeps it on a decided one", async () => {
    const task = await insertTask(db);
    const pending = await insertSubmission(db, { taskId: task.id, minerHotkey: key(5) });
    const decided = await insertSubmission(db, { taskId: task.id, minerHotkey: key(5, 2), status: SubmissionStatus.Accepted });
    const evaluate = (submissionId: string, hotkey: string) =>
      query(`INSERT INTO peer_evaluations (submission_id, task_id, evaluator_hotkey, status) VALUES ($1, $2, $3, 'accepted')`, [
        submissionId,
        task.id,
        hotkey,
      ]);
    await evaluate(pending, key(5, 7));
    await evaluate(pending, key(6, 7));
    await evaluate(decided, key(5, 0));

    await migrate();

    const rows = await query<{ submission_id: string; evaluator_hotkey: string }>(
      `SELECT submission_id, evaluator_hotkey FROM peer_evaluations WHERE task_id = $1 ORDER BY submission_id = $2 DESC`,
      [task.id, pending],
    );
    expect(rows).toEqual([
      { submission_id: pending, evaluator_hotkey: key(6) },
      { submission_id: decided, evaluator_hotkey: key(5) },
    ]);
  });

  it('leaves values that are no SS58 address as they are, and runs again as a no-op', async () => {
    const task = await insertTask(db);
    const submission = await insertSubmission(db, { taskId: task.id, minerHotkey: 'not-an-address' });
    await migrate();
    await migrate();
    expect(await query(`SELECT miner_hotkey FROM submissions WHERE id = $1`, [submission])).toEqual([{ miner_hotkey: 'not-an-address' }]);
  });
});
