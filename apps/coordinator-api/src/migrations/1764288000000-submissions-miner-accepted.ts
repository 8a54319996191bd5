import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A miner's accepted submissions by competition (`GET /api/v1/miners/{hotkey}/results`, public): without
 * it the read walks every accepted submission of every miner.
 */
export class SubmissionsMinerAccepted1764288000000 implements MigrationInterface {
  name = 'SubmissionsMinerAccepted1764288000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "submissions_miner_accepted_idx" ON "submissions" ("miner_hotkey", "task_id") WHERE status = 'accepted'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "submissions_miner_accepted_idx"`);
  }
}
