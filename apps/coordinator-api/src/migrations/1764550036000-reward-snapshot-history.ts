import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The reward snapshots served, kept by SHA-256 (DECISIONS.md §16) so that a payout verifier can read
 * the snapshot an epoch names; the one served now is copied in so the history starts with it.
 */
export class RewardSnapshotHistory1764550036000 implements MigrationInterface {
  name = 'RewardSnapshotHistory1764550036000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE reward_snapshot_history (
        sha256 text NOT NULL,
        generated_at timestamptz NOT NULL,
        body text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        replaced_at timestamptz,
        CONSTRAINT reward_snapshot_history_pkey PRIMARY KEY (sha256)
      )`);
    await q.query(`CREATE INDEX reward_snapshot_history_replaced_at_idx ON reward_snapshot_history (replaced_at)`);
    await q.query(`
      INSERT INTO reward_snapshot_history (sha256, generated_at, body)
      SELECT encode(sha256(convert_to(body, 'UTF8')), 'hex'), generated_at, body FROM reward_snapshots`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE reward_snapshot_history`);
  }
}
