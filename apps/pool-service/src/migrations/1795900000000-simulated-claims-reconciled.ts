import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The simulated-claim ledger reconciled from the claim contract (DECISIONS.md §8 Simulation,
 * docs/pool-and-payouts.md): a row the pool wrote because the contract had paid more than the ledger held
 * (the claim's own row was lost, e.g. to a Postgres crash after the payment) says so, and the
 * per-hotkey sums it is reconciled by are read through an index on the hotkey.
 */
export class SimulatedClaimsReconciled1795900000000 implements MigrationInterface {
  name = 'SimulatedClaimsReconciled1795900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "simulated_claims" ADD "reconciled" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`CREATE INDEX "simulated_claims_hotkey_idx" ON "simulated_claims" ("hotkey") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."simulated_claims_hotkey_idx"`);
    await queryRunner.query(`ALTER TABLE "simulated_claims" DROP COLUMN "reconciled"`);
  }
}
