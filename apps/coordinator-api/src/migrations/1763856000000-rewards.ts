import { MigrationInterface, QueryRunner } from 'typeorm';

/** Reward policy versions and the cached reward snapshot (DECISIONS.md §7). */
export class Rewards1763856000000 implements MigrationInterface {
  name = 'Rewards1763856000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE reward_policies (
        version integer PRIMARY KEY CHECK (version >= 1),
        document jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE reward_snapshots (
        id text PRIMARY KEY,
        generated_at timestamptz NOT NULL,
        body text NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE reward_snapshots`);
    await q.query(`DROP TABLE reward_policies`);
  }
}
