import { MigrationInterface, QueryRunner } from 'typeorm';

const ACCEPTED = `status = 'accepted'`;

/**
 * The reward snapshot reads only accepted submissions, so a write to `submissions` records a change
 * only when a row it inserted, updated (before or after) or deleted is accepted. Until now every
 * submission, stored `pending_verification`, recorded one: an extra write per submission and a
 * rebuild after every check interval under load, of a snapshot that could not have changed. Writes
 * to the other source tables, and a TRUNCATE of this one, still always record a change.
 * (Transition tables need one trigger per event.)
 */
export class SnapshotChangesOfAccepted1764201600000 implements MigrationInterface {
  name = 'SnapshotChangesOfAccepted1764201600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER submissions_reward_snapshot_change ON submissions`);
    const events: [event: string, referencing: string, touched: string][] = [
      ['INSERT', 'NEW TABLE AS new_rows', `EXISTS (SELECT 1 FROM new_rows WHERE ${ACCEPTED})`],
      ['UPDATE', 'OLD TABLE AS old_rows NEW TABLE AS new_rows', `EXISTS (SELECT 1 FROM old_rows WHERE ${ACCEPTED}) OR EXISTS (SELECT 1 FROM new_rows WHERE ${ACCEPTED})`],
      ['DELETE', 'OLD TABLE AS old_rows', `EXISTS (SELECT 1 FROM old_rows WHERE ${ACCEPTED})`],
    ];
    for (const [event, referencing, touched] of events) {
      const name = `note_accepted_submissions_${event.toLowerCase()}`;
      await q.query(`
        CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF ${touched} THEN
            INSERT INTO reward_snapshot_changes (xact_id) VALUES (txid_current()) ON CONFLICT (xact_id) DO NOTHING;
          END IF;
          RETURN NULL;
        END
        $$`);
      await q.query(
        `CREATE TRIGGER submissions_reward_snapshot_${event.toLowerCase()} AFTER ${event} ON submissions
         REFERENCING ${referencing} FOR EACH STATEMENT EXECUTE FUNCTION ${name}()`,
      );
    }
    await q.query(
      `CREATE TRIGGER submissions_reward_snapshot_truncate AFTER TRUNCATE ON submissions
       FOR EACH STATEMENT EXECUTE FUNCTION note_reward_snapshot_change()`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER submissions_reward_snapshot_truncate ON submissions`);
    for (const event of ['insert', 'update', 'delete']) {
      await q.query(`DROP TRIGGER submissions_reward_snapshot_${event} ON submissions`);
      await q.query(`DROP FUNCTION note_accepted_submissions_${event}()`);
    }
    await q.query(
      `CREATE TRIGGER submissions_reward_snapshot_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON submissions
       FOR EACH STATEMENT EXECUTE FUNCTION note_reward_snapshot_change()`,
    );
  }
}
