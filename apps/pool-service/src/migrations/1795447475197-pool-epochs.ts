import { MigrationInterface, QueryRunner } from 'typeorm';

/** Payout epochs (DECISIONS.md §8): fetched reward snapshots, epochs with their publication state, per-hotkey allocations (cumulative, leaf index), the simulated-claim ledger. Generated from the entities by the migration CLI. */
export class PoolEpochs1795447475197 implements MigrationInterface {
  name = 'PoolEpochs1795447475197';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "reward_snapshots" ("id" BIGSERIAL NOT NULL, "sha256" text NOT NULL, "body" bytea NOT NULL, "generated_at" TIMESTAMP WITH TIME ZONE NOT NULL, "fetched_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "reward_snapshots_sha256_check" CHECK (sha256 ~ '^[0-9a-f]{64}$'), CONSTRAINT "reward_snapshots_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "reward_snapshots_fetched_idx" ON "reward_snapshots" ("fetched_at") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "reward_snapshots_sha256_unique" ON "reward_snapshots" ("sha256") `);
    await queryRunner.query(`CREATE TABLE "epochs" ("epoch" integer NOT NULL, "snapshot_id" bigint, "snapshot_stale" boolean NOT NULL, "budget" numeric(20,0) NOT NULL, "carried_in" numeric(20,0) NOT NULL, "carried_over" numeric(20,0) NOT NULL, "root" text NOT NULL, "leaf_count" integer NOT NULL, "total_amount" numeric(20,0) NOT NULL, "allocation_document" text NOT NULL, "allocation_sha256" text NOT NULL, "local_cutoff_at" TIMESTAMP WITH TIME ZONE NOT NULL, "publication" text NOT NULL DEFAULT 'pending', "published_block" integer, "claims_open_at_block" integer, "published_at" TIMESTAMP WITH TIME ZONE, "tx_hash" text, "publish_attempts" integer NOT NULL DEFAULT '0', "last_publish_error" text, "last_publish_attempt_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "epochs_amounts_check" CHECK (budget >= 0 AND carried_in >= 0 AND carried_over >= 0 AND total_amount >= 0 AND leaf_count >= 0), CONSTRAINT "epochs_published_check" CHECK ((publication = 'published') = (published_at IS NOT NULL)), CONSTRAINT "epochs_publication_check" CHECK (publication IN ('pending', 'published')), CONSTRAINT "epochs_pkey" PRIMARY KEY ("epoch"))`);
    await queryRunner.query(`CREATE TABLE "epoch_allocations" ("epoch" integer NOT NULL, "hotkey" text NOT NULL, "units" numeric(20,0) NOT NULL, "cumulative" numeric(20,0) NOT NULL, "recipient_coldkey" text, "leaf_index" integer, CONSTRAINT "epoch_allocations_amounts_check" CHECK (units >= 0 AND cumulative >= units), CONSTRAINT "epoch_allocations_leaf_check" CHECK ((leaf_index IS NULL) = (recipient_coldkey IS NULL)), CONSTRAINT "epoch_allocations_pkey" PRIMARY KEY ("epoch", "hotkey"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "epoch_allocations_leaf_unique" ON "epoch_allocations" ("epoch", "leaf_index") WHERE leaf_index IS NOT NULL`);
    await queryRunner.query(`CREATE TABLE "simulated_claims" ("id" BIGSERIAL NOT NULL, "epoch" integer NOT NULL, "hotkey" text NOT NULL, "recipient_coldkey" text NOT NULL, "amount" numeric(20,0) NOT NULL, "paid" numeric(20,0) NOT NULL, "block" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "simulated_claims_paid_check" CHECK (paid > 0), CONSTRAINT "simulated_claims_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "simulated_claims_epoch_idx" ON "simulated_claims" ("epoch", "created_at") `);
    await queryRunner.query(`ALTER TABLE "epochs" ADD CONSTRAINT "epochs_snapshot_fkey" FOREIGN KEY ("snapshot_id") REFERENCES "reward_snapshots"("id") ON DELETE NO ACTION ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "epoch_allocations" ADD CONSTRAINT "epoch_allocations_epoch_fkey" FOREIGN KEY ("epoch") REFERENCES "epochs"("epoch") ON DELETE NO ACTION ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "simulated_claims" ADD CONSTRAINT "simulated_claims_epoch_fkey" FOREIGN KEY ("epoch") REFERENCES "epochs"("epoch") ON DELETE NO ACTION ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "simulated_claims" DROP CONSTRAINT "simulated_claims_epoch_fkey"`);
    await queryRunner.query(`ALTER TABLE "epoch_allocations" DROP CONSTRAINT "epoch_allocations_epoch_fkey"`);
    await queryRunner.query(`ALTER TABLE "epochs" DROP CONSTRAINT "epochs_snapshot_fkey"`);
    await queryRunner.query(`DROP INDEX "public"."simulated_claims_epoch_idx"`);
    await queryRunner.query(`DROP TABLE "simulated_claims"`);
    await queryRunner.query(`DROP INDEX "public"."epoch_allocations_leaf_unique"`);
    await queryRunner.query(`DROP TABLE "epoch_allocations"`);
    await queryRunner.query(`DROP TABLE "epochs"`);
    await queryRunner.query(`DROP INDEX "public"."reward_snapshots_sha256_unique"`);
    await queryRunner.query(`DROP INDEX "public"."reward_snapshots_fetched_idx"`);
    await queryRunner.query(`DROP TABLE "reward_snapshots"`);
  }
}
