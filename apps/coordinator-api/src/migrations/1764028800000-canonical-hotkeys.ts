import { canonicalSs58 } from '@rcs/auth';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** Every column that holds a hotkey, as `[table, column]`. */
export const HOTKEY_COLUMNS: readonly (readonly [table: string, column: string])[] = [
  ['claims', 'miner_hotkey'],
  ['submissions', 'miner_hotkey'],
  ['validator_jobs', 'validator_hotkey'],
  ['verifications', 'validator_hotkey'],
  ['peer_evaluations', 'evaluator_hotkey'],
  ['best_results', 'miner_hotkey'],
  ['best_result_changes', 'miner_hotkey'],
  ['idea_rewards', 'proposer_hotkey'],
  ['idea_rewards', 'implementer_hotkey'],
];

/**
 * Rewrites every stored hotkey in its canonical SS58 spelling (prefix 42, DECISIONS.md §2 Identity):
 * before, a key sent under another network prefix was stored as sent and counted as another miner.
 * Values that are no SS58 address (the coordinator's own `coordinator` verifications) stay as they are.
 *
 * Two spellings of one key may have made rows that one identity cannot hold; this keeps the oldest:
 * - several active claims of one key on one task: the oldest stays active, the others become `expired`
 *   (their work items return to `open`, as any expiry does);
 * - several peer evaluations of one submission by one key: the oldest stays, the others are deleted
 *   (they were never allowed). Decisions already taken on them stand;
 * - a miner's evaluation of his own submission under another spelling is deleted while that submission
 *   still waits for its decision (it would count towards it); on decided submissions it stays as history.
 * Down is a no-op: the old spellings named the same keys and are not kept.
 */
export class CanonicalHotkeys1764028800000 implements MigrationInterface {
  name = 'CanonicalHotkeys1764028800000';

  async up(q: QueryRunner): Promise<void> {
    const spellings = new Set<string>();
    for (const [table, column] of HOTKEY_COLUMNS) {
      const rows = (await q.query(`SELECT DISTINCT ${column} AS hotkey FROM ${table} WHERE ${column} IS NOT NULL`)) as { hotkey: string }[];
      for (const { hotkey } of rows) spellings.add(hotkey);
    }
    const respelled: [spelling: string, canonical: string][] = [];
    for (const spelling of spellings) {
      const canonical = canonicalSs58(spelling);
      if (canonical !== null && canonical !== spelling) respelled.push([spelling, canonical]);
    }
    if (respelled.length === 0) return;

    await q.query(`CREATE TEMPORARY TABLE hotkey_spellings (spelling text PRIMARY KEY, canonical text NOT NULL)`);
    await q.query(`INSERT INTO hotkey_spellings (spelling, canonical) SELECT * FROM unnest($1::text[], $2::text[])`, [
      respelled.map(([spelling]) => spelling),
      respelled.map(([, canonical]) => canonical),
    ]);
    await q.query(`
      WITH ranked AS (
        SELECT c.id, c.work_item_id,
               row_number() OVER (PARTITION BY c.task_id, coalesce(s.canonical, c.miner_hotkey) ORDER BY c.created_at, c.id) AS rank
        FROM claims c LEFT JOIN hotkey_spellings s ON s.spelling = c.miner_hotkey
        WHERE c.status = 'active'
      ), expired AS (
        UPDATE claims c SET status = 'expired', updated_at = now()
        FROM ranked r WHERE c.id = r.id AND r.rank > 1
        RETURNING c.id, c.work_item_id
      )
      UPDATE work_items w SET status = 'open', claim_id = NULL, updated_at = now()
      FROM expired e
      WHERE w.id = e.work_item_id AND w.claim_id = e.id AND w.status = 'claimed'`);
    await q.query(`
      DELETE FROM peer_evaluations p USING (
        SELECT e.id,
               row_number() OVER (PARTITION BY e.submission_id, coalesce(s.canonical, e.evaluator_hotkey) ORDER BY e.created_at, e.id) AS rank
        FROM peer_evaluations e LEFT JOIN hotkey_spellings s ON s.spelling = e.evaluator_hotkey
      ) r
      WHERE p.id = r.id AND r.rank > 1`);
    await q.query(`
      DELETE FROM peer_evaluations p
      USING submissions s
      LEFT JOIN hotkey_spellings ms ON ms.spelling = s.miner_hotkey
      WHERE p.submission_id = s.id AND s.status = 'pending_verification'
        AND coalesce(ms.canonical, s.miner_hotkey) =
            coalesce((SELECT e.canonical FROM hotkey_spellings e WHERE e.spelling = p.evaluator_hotkey), p.evaluator_hotkey)`);
    for (const [table, column] of HOTKEY_COLUMNS) {
      await q.query(`UPDATE ${table} t SET ${column} = s.canonical FROM hotkey_spellings s WHERE t.${column} = s.spelling`);
    }
    await q.query(`DROP TABLE hotkey_spellings`);
  }

  async down(): Promise<void> {
    // Nothing to undo: the canonical spelling names the same keys.
  }
}
