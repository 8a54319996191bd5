import { MigrationInterface, QueryRunner } from 'typeorm';

/** The tables the reward snapshot is built from: a change to any of them makes the served snapshot stale. */
export const REWARD_SNAPSHOT_SOURCES = ['tasks', 'submissions', 'best_results', 'idea_rewards', 'reward_policies'] as const;

/**
 * The need for a snapshot rebuild, recorded in the transaction that makes it (an outbox): one row
 * per transaction that wrote a table the snapshot reads, written by statement triggers so that no
 * write path (decisions, task moves, policy updates, fixtures, migrations) can forget it. A rebuild
 * deletes the rows its read saw; the periodic check rebuilds while any is left.
 */
export class RewardSnapshotChanges1764115200000 implements MigrationInterface {
  name = 'RewardSnapshotChanges1764115200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE reward_snapshot_changes (
        xact_id bigint PRIMARY KEY,
        changed_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE FUNCTION note_reward_snapshot_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO reward_snapshot_changes (xact_id) VALUES (txid_current()) ON CONFLICT (xact_id) DO NOTHING;
        RETURN NULL;
      END
      $$`);
    for (const table of REWARD_SNAPSHOT_SOURCES) {
      await q.query(
        `CREATE TRIGGER ${table}_reward_snapshot_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${table}
         FOR EACH STATEMENT EXECUTE FUNCTION note_reward_snapshot_change()`,
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of REWARD_SNAPSHOT_SOURCES) await q.query(`DROP TRIGGER ${table}_reward_snapshot_change ON ${table}`);
    await q.query(`DROP FUNCTION note_reward_snapshot_change()`);
    await q.query(`DROP TABLE reward_snapshot_changes`);
  }
}
