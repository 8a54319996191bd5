import { MigrationInterface, QueryRunner } from 'typeorm';

const ACCEPTED = `status = 'accepted'`;
/** A pair's row from its accepted submissions (all of them): the slow, exact way, for the rare change that takes one away. */
const RECOMPUTE = (pairs: string) => `
  DELETE FROM miner_task_results r USING (${pairs}) p WHERE r.miner_hotkey = p.miner_hotkey AND r.task_id = p.task_id;
  INSERT INTO miner_task_results (miner_hotkey, task_id, accepted, latest_decided_at)
  SELECT s.miner_hotkey, s.task_id, count(*)::int, date_trunc('milliseconds', max(s.decided_at))
  FROM submissions s JOIN (${pairs}) p ON s.miner_hotkey = p.miner_hotkey AND s.task_id = p.task_id
  WHERE s.${ACCEPTED} AND s.decided_at IS NOT NULL
  GROUP BY s.miner_hotkey, s.task_id;`;
/** Newly accepted rows counted in: the usual change (a decision), one upsert per pair. */
const ADD = (rows: string) => `
  INSERT INTO miner_task_results (miner_hotkey, task_id, accepted, latest_decided_at)
  SELECT miner_hotkey, task_id, count(*)::int, date_trunc('milliseconds', max(decided_at)) FROM (${rows}) a
  WHERE decided_at IS NOT NULL GROUP BY miner_hotkey, task_id
  ON CONFLICT (miner_hotkey, task_id) DO UPDATE
  SET accepted = miner_task_results.accepted + EXCLUDED.accepted,
      latest_decided_at = GREATEST(miner_task_results.latest_decided_at, EXCLUDED.latest_decided_at);`;

/**
 * `GET /api/v1/miners/{hotkey}/results` read every accepted submission of the miner on each call (0.4–0.7 s at
 * 100,000, issue 35). Now a row per (miner, task) holds the count and the latest decision, kept by statement
 * triggers on `submissions` (decisions add rows; a row that stops being accepted, moves or is deleted recomputes its
 * pairs), and is read one page at a time by (miner_hotkey, latest_decided_at DESC, task_id DESC). Each page row's
 * best submission is one index probe: one index per metric direction replaces `submissions_miner_accepted_idx`.
 */
export class MinerTaskResults1764633600000 implements MigrationInterface {
  name = 'MinerTaskResults1764633600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE miner_task_results (
        miner_hotkey text NOT NULL,
        task_id uuid NOT NULL,
        accepted integer NOT NULL,
        latest_decided_at timestamptz NOT NULL,
        CONSTRAINT miner_task_results_pkey PRIMARY KEY (miner_hotkey, task_id),
        CONSTRAINT miner_task_results_task_id_fkey FOREIGN KEY (task_id) REFERENCES tasks (id)
      )`);
    await q.query(`CREATE INDEX miner_task_results_page_idx ON miner_task_results (miner_hotkey, latest_decided_at DESC, task_id DESC)`);
    await q.query(`
      INSERT INTO miner_task_results (miner_hotkey, task_id, accepted, latest_decided_at)
      SELECT miner_hotkey, task_id, count(*)::int, date_trunc('milliseconds', max(decided_at)) FROM submissions
      WHERE ${ACCEPTED} AND decided_at IS NOT NULL GROUP BY miner_hotkey, task_id`);
    await q.query(`DROP INDEX submissions_miner_accepted_idx`);
    await q.query(`CREATE INDEX submissions_miner_best_min_idx ON submissions (miner_hotkey, task_id, verified_metric_value, decided_at, id) WHERE ${ACCEPTED}`);
    await q.query(
      `CREATE INDEX submissions_miner_best_max_idx ON submissions (miner_hotkey, task_id, verified_metric_value DESC NULLS LAST, decided_at, id) WHERE ${ACCEPTED}`,
    );
    // An accepted row of the old version whose new version is not the same accepted row (pair and decision) changes its pairs.
    const changedOld = `SELECT o.miner_hotkey, o.task_id FROM old_rows o LEFT JOIN new_rows n ON n.id = o.id
                        WHERE o.${ACCEPTED} AND (n.id IS NULL OR n.status <> 'accepted' OR n.miner_hotkey <> o.miner_hotkey OR n.task_id <> o.task_id
                              OR n.decided_at IS DISTINCT FROM o.decided_at)`;
    const changedPairs = `SELECT miner_hotkey, task_id FROM (${changedOld}) c UNION
                          SELECT n.miner_hotkey, n.task_id FROM new_rows n JOIN old_rows o ON o.id = n.id
                          WHERE n.${ACCEPTED} AND o.${ACCEPTED} AND (n.miner_hotkey <> o.miner_hotkey OR n.task_id <> o.task_id OR n.decided_at IS DISTINCT FROM o.decided_at)`;
    const added = `SELECT n.miner_hotkey, n.task_id, n.decided_at FROM new_rows n LEFT JOIN old_rows o ON o.id = n.id
                   WHERE n.${ACCEPTED} AND (o.id IS NULL OR o.status <> 'accepted')`;
    const bodies: [event: string, referencing: string, body: string][] = [
      ['INSERT', 'NEW TABLE AS new_rows', ADD(`SELECT miner_hotkey, task_id, decided_at FROM new_rows WHERE ${ACCEPTED}`)],
      ['UPDATE', 'OLD TABLE AS old_rows NEW TABLE AS new_rows', `${ADD(added)}\n${RECOMPUTE(changedPairs)}`],
      ['DELETE', 'OLD TABLE AS old_rows', RECOMPUTE(`SELECT DISTINCT miner_hotkey, task_id FROM old_rows WHERE ${ACCEPTED}`)],
    ];
    for (const [event, referencing, body] of bodies) {
      const name = `keep_miner_task_results_${event.toLowerCase()}`;
      await q.query(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${body} RETURN NULL; END $$`);
      await q.query(`CREATE TRIGGER submissions_miner_task_results_${event.toLowerCase()} AFTER ${event} ON submissions REFERENCING ${referencing} FOR EACH STATEMENT EXECUTE FUNCTION ${name}()`);
    }
    await q.query(`CREATE FUNCTION clear_miner_task_results() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN DELETE FROM miner_task_results; RETURN NULL; END $$`);
    await q.query(`CREATE TRIGGER submissions_miner_task_results_truncate AFTER TRUNCATE ON submissions FOR EACH STATEMENT EXECUTE FUNCTION clear_miner_task_results()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER submissions_miner_task_results_truncate ON submissions`);
    await q.query(`DROP FUNCTION clear_miner_task_results()`);
    for (const event of ['insert', 'update', 'delete']) {
      await q.query(`DROP TRIGGER submissions_miner_task_results_${event} ON submissions`);
      await q.query(`DROP FUNCTION keep_miner_task_results_${event}()`);
    }
    await q.query(`DROP INDEX submissions_miner_best_max_idx`);
    await q.query(`DROP INDEX submissions_miner_best_min_idx`);
    await q.query(`CREATE INDEX submissions_miner_accepted_idx ON submissions (miner_hotkey, task_id) WHERE ${ACCEPTED}`);
    await q.query(`DROP TABLE miner_task_results`);
  }
}
