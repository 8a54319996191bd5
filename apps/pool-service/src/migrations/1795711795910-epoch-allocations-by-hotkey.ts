import { MigrationInterface, QueryRunner } from 'typeorm';

/** A hotkey's allocations newest first, for the recipient lookup's `published_in_epoch` (DECISIONS.md §11). Generated from the entities by the migration CLI. */
export class EpochAllocationsByHotkey1795711795910 implements MigrationInterface {
  name = 'EpochAllocationsByHotkey1795711795910';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "epoch_allocations_hotkey_idx" ON "epoch_allocations" ("hotkey", "epoch") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."epoch_allocations_hotkey_idx"`);
  }
}
