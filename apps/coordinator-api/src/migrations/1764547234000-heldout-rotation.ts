import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The BitSota profile's held-out rotation (DECISIONS §15): a task's rotation period (null: one payout window),
 * and each validator job's rotation pair, fixed at its first lease and kept by re-leases.
 */
export class HeldoutRotation1764547234000 implements MigrationInterface {
  name = 'HeldoutRotation1764547234000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE tasks ADD COLUMN heldout_rotation_seconds integer,
         ADD CONSTRAINT tasks_heldout_rotation_seconds_check CHECK (heldout_rotation_seconds BETWEEN 1 AND 31536000)`,
    );
    await queryRunner.query(
      `ALTER TABLE validator_jobs ADD COLUMN heldout_rotation_slot integer, ADD COLUMN heldout_rotation_number text,
         ADD CONSTRAINT validator_jobs_heldout_rotation_check CHECK ((heldout_rotation_slot IS NULL) = (heldout_rotation_number IS NULL))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE validator_jobs DROP CONSTRAINT validator_jobs_heldout_rotation_check, DROP COLUMN heldout_rotation_number, DROP COLUMN heldout_rotation_slot`,
    );
    await queryRunner.query(`ALTER TABLE tasks DROP CONSTRAINT tasks_heldout_rotation_seconds_check, DROP COLUMN heldout_rotation_seconds`);
  }
}
