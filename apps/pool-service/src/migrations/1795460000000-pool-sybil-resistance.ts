import { MigrationInterface, QueryRunner } from 'typeorm';

const NON_FINITE = `('Infinity', '-Infinity', 'NaN')`;

/**
 * Sybil resistance and finite scores (DECISIONS.md §11):
 * - owner coldkeys on algorithms (`author_owner`), evaluations and assignments (`owner_coldkey`); rows made
 *   before owners existed are their hotkey's own owner, as a hotkey without an owner is;
 * - one evaluation per owner and algorithm; every assignment carries its window (batches per window per owner);
 * - `bar_parent_ids`: the parents of the assignment an evolution came from, the bar of its improvement bonus;
 * - consensus scores, results and thresholds are finite. Repairs first: a non-finite consensus voids its
 *   algorithm's decision (rejected) and its result; a non-finite threshold falls back to the best finite
 *   verified result of its task type, else 0.
 */
export class PoolSybilResistance1795460000000 implements MigrationInterface {
  name = 'PoolSybilResistance1795460000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`UPDATE "sota_thresholds" s SET "threshold" = COALESCE(best.score, 0), "result_id" = best.id
      FROM "sota_thresholds" t LEFT JOIN LATERAL (
        SELECT r.id, r.score FROM "results" r
        WHERE r.task_type = t.task_type AND r.status = 'verified' AND r.score NOT IN ${NON_FINITE}
        ORDER BY r.score DESC, r.id LIMIT 1
      ) best ON true
      WHERE s.task_type = t.task_type AND t.threshold IN ${NON_FINITE}`);
    await queryRunner.query(`DELETE FROM "results" WHERE "score" IN ${NON_FINITE}`);
    await queryRunner.query(`UPDATE "algorithms" SET "status" = 'rejected', "consensus_score" = NULL WHERE "consensus_score" IN ${NON_FINITE}`);

    await queryRunner.query(`ALTER TABLE "algorithms" ADD "author_owner" text`);
    await queryRunner.query(`ALTER TABLE "algorithms" ADD "bar_parent_ids" integer array`);
    await queryRunner.query(`UPDATE "algorithms" SET "author_owner" = "author_hotkey", "bar_parent_ids" = "parent_ids"`);
    await queryRunner.query(`ALTER TABLE "algorithms" ALTER COLUMN "bar_parent_ids" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "algorithms" ADD CONSTRAINT "algorithms_author_owner_check" CHECK ((author_hotkey IS NULL) = (author_owner IS NULL))`);
    await queryRunner.query(`ALTER TABLE "algorithms" ADD CONSTRAINT "algorithms_score_finite_check" CHECK (consensus_score NOT IN ${NON_FINITE})`);
    await queryRunner.query(`CREATE INDEX "algorithms_author_owner_idx" ON "algorithms" ("author_owner") `);

    await queryRunner.query(`ALTER TABLE "evaluations" ADD "owner_coldkey" text`);
    await queryRunner.query(`UPDATE "evaluations" SET "owner_coldkey" = "miner_hotkey"`);
    await queryRunner.query(`ALTER TABLE "evaluations" ALTER COLUMN "owner_coldkey" SET NOT NULL`);
    await queryRunner.query(`CREATE UNIQUE INDEX "evaluations_one_per_owner_unique" ON "evaluations" ("algorithm_id", "owner_coldkey") `);

    await queryRunner.query(`ALTER TABLE "assignments" ADD "owner_coldkey" text`);
    await queryRunner.query(`UPDATE "assignments" SET "owner_coldkey" = "miner_hotkey"`);
    await queryRunner.query(`ALTER TABLE "assignments" ALTER COLUMN "owner_coldkey" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "assignments" DROP CONSTRAINT "assignments_lease_window_check"`);
    await queryRunner.query(`ALTER TABLE "assignments" ADD CONSTRAINT "assignments_lease_window_check" CHECK (kind <> 'lease' OR window_number IS NOT NULL)`);
    await queryRunner.query(`CREATE INDEX "assignments_owner_window_idx" ON "assignments" ("owner_coldkey", "window_number") `);

    await queryRunner.query(`ALTER TABLE "results" ADD CONSTRAINT "results_score_finite_check" CHECK (score NOT IN ${NON_FINITE})`);
    await queryRunner.query(`ALTER TABLE "sota_thresholds" ADD CONSTRAINT "sota_thresholds_finite_check" CHECK (threshold NOT IN ${NON_FINITE})`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sota_thresholds" DROP CONSTRAINT "sota_thresholds_finite_check"`);
    await queryRunner.query(`ALTER TABLE "results" DROP CONSTRAINT "results_score_finite_check"`);
    await queryRunner.query(`DROP INDEX "public"."assignments_owner_window_idx"`);
    await queryRunner.query(`ALTER TABLE "assignments" DROP CONSTRAINT "assignments_lease_window_check"`);
    await queryRunner.query(`UPDATE "assignments" SET "window_number" = NULL WHERE "kind" <> 'lease'`);
    await queryRunner.query(`ALTER TABLE "assignments" ADD CONSTRAINT "assignments_lease_window_check" CHECK ((kind = 'lease') = (window_number IS NOT NULL))`);
    await queryRunner.query(`ALTER TABLE "assignments" DROP COLUMN "owner_coldkey"`);
    await queryRunner.query(`DROP INDEX "public"."evaluations_one_per_owner_unique"`);
    await queryRunner.query(`ALTER TABLE "evaluations" DROP COLUMN "owner_coldkey"`);
    await queryRunner.query(`DROP INDEX "public"."algorithms_author_owner_idx"`);
    await queryRunner.query(`ALTER TABLE "algorithms" DROP CONSTRAINT "algorithms_score_finite_check"`);
    await queryRunner.query(`ALTER TABLE "algorithms" DROP CONSTRAINT "algorithms_author_owner_check"`);
    await queryRunner.query(`ALTER TABLE "algorithms" DROP COLUMN "bar_parent_ids"`);
    await queryRunner.query(`ALTER TABLE "algorithms" DROP COLUMN "author_owner"`);
  }
}
