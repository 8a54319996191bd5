import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Private held-out delivery (DECISIONS.md §6): a task's shards, stored by SHA-256 in HELDOUT_STORE_DIR,
 * and which shard each validator job was given and each verification's replay used, for audits.
 */
export class HeldoutShards1764460800000 implements MigrationInterface {
  name = 'HeldoutShards1764460800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE heldout_shards (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        task_id uuid NOT NULL REFERENCES tasks (id),
        sha256 text NOT NULL,
        name text NOT NULL,
        bytes bigint NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        -- Content addressing: the same bytes uploaded twice to a task are one shard.
        CONSTRAINT heldout_shards_task_sha256_unique UNIQUE (task_id, sha256)
      )`);
    await q.query(`ALTER TABLE validator_jobs ADD COLUMN heldout_sha256 text`);
    await q.query(`ALTER TABLE verifications ADD COLUMN heldout_sha256 text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE verifications DROP COLUMN heldout_sha256`);
    await q.query(`ALTER TABLE validator_jobs DROP COLUMN heldout_sha256`);
    await q.query(`DROP TABLE heldout_shards`);
  }
}
