import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A verification's task metric per held-out item, when the benchmark reported `per_item` (DECISIONS §17): the
 * release rule's paired spread against the leader and a shard's default budget are computed from it. Never public.
 */
export class VerificationPerItem1765038200000 implements MigrationInterface {
  name = 'VerificationPerItem1765038200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE verifications ADD COLUMN per_item jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE verifications DROP COLUMN per_item`);
  }
}
