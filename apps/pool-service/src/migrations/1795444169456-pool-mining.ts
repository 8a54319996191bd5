import { MigrationInterface, QueryRunner } from 'typeorm';

/** The pool-mining schema (DECISIONS.md §11): miners, recipient history, algorithms, evaluations, assignments, reputation, results, SOTA. Generated from the entities by the migration CLI. */
export class PoolMining1795444169456 implements MigrationInterface {
  name = 'PoolMining1795444169456';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "miners" ("hotkey" text NOT NULL, "registered_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_seen_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "recipient_coldkey" text, "recipient_updated_at" TIMESTAMP WITH TIME ZONE, "declared_coldkey" text, "declared_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "miners_pkey" PRIMARY KEY ("hotkey"))`);
    await queryRunner.query(`CREATE TABLE "algorithms" ("id" SERIAL NOT NULL, "task_type" text NOT NULL, "algorithm_dsl" text NOT NULL, "dsl_hash" text NOT NULL, "input_dim" integer NOT NULL, "parent_ids" integer array NOT NULL, "author_hotkey" text, "source" text NOT NULL, "status" text NOT NULL, "consensus_score" double precision, "evaluations_count" integer NOT NULL DEFAULT '0', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "decided_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "algorithms_author_check" CHECK ((source = 'seed') = (author_hotkey IS NULL)), CONSTRAINT "algorithms_scored_check" CHECK ((status = 'scored') = (consensus_score IS NOT NULL)), CONSTRAINT "algorithms_status_check" CHECK (status IN ('pending', 'scored', 'rejected')), CONSTRAINT "algorithms_source_check" CHECK (source IN ('seed', 'evolution')), CONSTRAINT "algorithms_input_dim_check" CHECK (input_dim BETWEEN 1 AND 1000000), CONSTRAINT "algorithms_task_type_check" CHECK (task_type ~ '^[a-z0-9_]{1,64}$'), CONSTRAINT "algorithms_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "algorithms_author_idx" ON "algorithms" ("author_hotkey") `);
    await queryRunner.query(`CREATE INDEX "algorithms_scored_idx" ON "algorithms" ("task_type", "consensus_score") WHERE status = 'scored'`);
    await queryRunner.query(`CREATE INDEX "algorithms_pending_idx" ON "algorithms" ("task_type", "evaluations_count") WHERE status = 'pending'`);
    await queryRunner.query(`CREATE UNIQUE INDEX "algorithms_dsl_unique" ON "algorithms" ("task_type", "dsl_hash") `);
    await queryRunner.query(`CREATE TABLE "assignments" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "miner_hotkey" text NOT NULL, "kind" text NOT NULL, "status" text NOT NULL, "task_type" text NOT NULL, "algorithm_ids" integer array NOT NULL, "seed_ids" integer array NOT NULL, "window_number" integer, "evolve_budget" integer NOT NULL, "timeout_at" TIMESTAMP WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "assignments_evolve_budget_check" CHECK (evolve_budget >= 0), CONSTRAINT "assignments_lease_window_check" CHECK ((kind = 'lease') = (window_number IS NOT NULL)), CONSTRAINT "assignments_status_check" CHECK (status IN ('active', 'submitted', 'expired')), CONSTRAINT "assignments_kind_check" CHECK (kind IN ('evolve', 'evaluate', 'lease')), CONSTRAINT "assignments_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "assignments_active_timeout_idx" ON "assignments" ("timeout_at") WHERE status = 'active'`);
    await queryRunner.query(`CREATE UNIQUE INDEX "assignments_one_lease_per_window_unique" ON "assignments" ("miner_hotkey", "window_number") WHERE kind = 'lease'`);
    await queryRunner.query(`CREATE UNIQUE INDEX "assignments_one_active_unique" ON "assignments" ("miner_hotkey") WHERE status = 'active'`);
    await queryRunner.query(`CREATE TABLE "evaluations" ("id" BIGSERIAL NOT NULL, "algorithm_id" integer NOT NULL, "miner_hotkey" text NOT NULL, "assignment_id" uuid NOT NULL, "score" double precision NOT NULL, "in_consensus" boolean, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "evaluations_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "evaluations_assignment_idx" ON "evaluations" ("assignment_id") `);
    await queryRunner.query(`CREATE INDEX "evaluations_miner_idx" ON "evaluations" ("miner_hotkey") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "evaluations_one_per_miner_unique" ON "evaluations" ("algorithm_id", "miner_hotkey") `);
    await queryRunner.query(`CREATE TABLE "recipient_changes" ("id" BIGSERIAL NOT NULL, "hotkey" text NOT NULL, "kind" text NOT NULL, "coldkey" text NOT NULL, "signed_coldkey" text NOT NULL, "signed_timestamp" text NOT NULL, "signature" text NOT NULL, "route" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "recipient_changes_kind_check" CHECK (kind IN ('recipient', 'declared')), CONSTRAINT "recipient_changes_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "recipient_changes_hotkey_idx" ON "recipient_changes" ("hotkey", "created_at") `);
    await queryRunner.query(`CREATE TABLE "reputation_events" ("id" BIGSERIAL NOT NULL, "miner_hotkey" text NOT NULL, "kind" text NOT NULL, "amount" double precision NOT NULL, "algorithm_id" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "reputation_events_kind_check" CHECK (kind IN ('evaluation_in_consensus', 'evaluation_out_of_consensus', 'evolution_improved')), CONSTRAINT "reputation_events_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "reputation_events_miner_idx" ON "reputation_events" ("miner_hotkey", "created_at") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "reputation_events_once_unique" ON "reputation_events" ("miner_hotkey", "algorithm_id", "kind") `);
    await queryRunner.query(`CREATE TABLE "results" ("id" SERIAL NOT NULL, "algorithm_id" integer NOT NULL, "task_type" text NOT NULL, "miner_hotkey" text, "score" double precision NOT NULL, "evaluations" integer NOT NULL, "status" text NOT NULL, "verified_by" text, "verified_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "results_verified_check" CHECK ((status = 'verified') = (verified_at IS NOT NULL AND verified_by IS NOT NULL)), CONSTRAINT "results_status_check" CHECK (status IN ('pending', 'verified')), CONSTRAINT "results_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "results_status_created_idx" ON "results" ("status", "created_at") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "results_algorithm_unique" ON "results" ("algorithm_id") `);
    await queryRunner.query(`CREATE TABLE "sota_thresholds" ("task_type" text NOT NULL, "threshold" double precision NOT NULL, "result_id" integer, "updated_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "sota_thresholds_pkey" PRIMARY KEY ("task_type"))`);
    await queryRunner.query(`ALTER TABLE "algorithms" ADD CONSTRAINT "algorithms_author_fkey" FOREIGN KEY ("author_hotkey") REFERENCES "miners"("hotkey") ON DELETE NO ACTION ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "assignments" ADD CONSTRAINT "assignments_miner_fkey" FOREIGN KEY ("miner_hotkey") REFERENCES "miners"("hotkey") ON DELETE NO ACTION ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "evaluations" ADD CONSTRAINT "evaluations_algorithm_fkey" FOREIGN KEY ("algorithm_id") REFERENCES "algorithms"("id") ON DELETE NO ACTION ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "evaluations" ADD CONSTRAINT "evaluations_miner_fkey" FOREIGN KEY ("miner_hotkey") REFERENCES "miners"("hotkey") ON DELETE NO ACTION ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "evaluations" ADD CONSTRAINT "evaluations_assignment_fkey" FOREIGN KEY ("assignment_id") REFERENCES "assignments"("id") ON DELETE NO ACTION ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "recipient_changes" ADD CONSTRAINT "recipient_changes_hotkey_fkey" FOREIGN KEY ("hotkey") REFERENCES "miners"("hotkey") ON DELETE NO ACTION ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "reputation_events" ADD CONSTRAINT "reputation_events_miner_fkey" FOREIGN KEY ("miner_hotkey") REFERENCES "miners"("hotkey") ON DELETE NO ACTION ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "reputation_events" ADD CONSTRAINT "reputation_events_algorithm_fkey" FOREIGN KEY ("algorithm_id") REFERENCES "algorithms"("id") ON DELETE NO ACTION ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "results" ADD CONSTRAINT "results_algorithm_fkey" FOREIGN KEY ("algorithm_id") REFERENCES "algorithms"("id") ON DELETE NO ACTION ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "sota_thresholds" ADD CONSTRAINT "sota_thresholds_result_fkey" FOREIGN KEY ("result_id") REFERENCES "results"("id") ON DELETE NO ACTION ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sota_thresholds" DROP CONSTRAINT "sota_thresholds_result_fkey"`);
    await queryRunner.query(`ALTER TABLE "results" DROP CONSTRAINT "results_algorithm_fkey"`);
    await queryRunner.query(`ALTER TABLE "reputation_events" DROP CONSTRAINT "reputation_events_algorithm_fkey"`);
    await queryRunner.query(`ALTER TABLE "reputation_events" DROP CONSTRAINT "reputation_events_miner_fkey"`);
    await queryRunner.query(`ALTER TABLE "recipient_changes" DROP CONSTRAINT "recipient_changes_hotkey_fkey"`);
    await queryRunner.query(`ALTER TABLE "evaluations" DROP CONSTRAINT "evaluations_assignment_fkey"`);
    await queryRunner.query(`ALTER TABLE "evaluations" DROP CONSTRAINT "evaluations_miner_fkey"`);
    await queryRunner.query(`ALTER TABLE "evaluations" DROP CONSTRAINT "evaluations_algorithm_fkey"`);
    await queryRunner.query(`ALTER TABLE "assignments" DROP CONSTRAINT "assignments_miner_fkey"`);
    await queryRunner.query(`ALTER TABLE "algorithms" DROP CONSTRAINT "algorithms_author_fkey"`);
    await queryRunner.query(`DROP TABLE "sota_thresholds"`);
    await queryRunner.query(`DROP INDEX "public"."results_algorithm_unique"`);
    await queryRunner.query(`DROP INDEX "public"."results_status_created_idx"`);
    await queryRunner.query(`DROP TABLE "results"`);
    await queryRunner.query(`DROP INDEX "public"."reputation_events_once_unique"`);
    await queryRunner.query(`DROP INDEX "public"."reputation_events_miner_idx"`);
    await queryRunner.query(`DROP TABLE "reputation_events"`);
    await queryRunner.query(`DROP INDEX "public"."recipient_changes_hotkey_idx"`);
    await queryRunner.query(`DROP TABLE "recipient_changes"`);
    await queryRunner.query(`DROP INDEX "public"."evaluations_one_per_miner_unique"`);
    await queryRunner.query(`DROP INDEX "public"."evaluations_miner_idx"`);
    await queryRunner.query(`DROP INDEX "public"."evaluations_assignment_idx"`);
    await queryRunner.query(`DROP TABLE "evaluations"`);
    await queryRunner.query(`DROP INDEX "public"."assignments_one_active_unique"`);
    await queryRunner.query(`DROP INDEX "public"."assignments_one_lease_per_window_unique"`);
    await queryRunner.query(`DROP INDEX "public"."assignments_active_timeout_idx"`);
    await queryRunner.query(`DROP TABLE "assignments"`);
    await queryRunner.query(`DROP INDEX "public"."algorithms_dsl_unique"`);
    await queryRunner.query(`DROP INDEX "public"."algorithms_pending_idx"`);
    await queryRunner.query(`DROP INDEX "public"."algorithms_scored_idx"`);
    await queryRunner.query(`DROP INDEX "public"."algorithms_author_idx"`);
    await queryRunner.query(`DROP TABLE "algorithms"`);
    await queryRunner.query(`DROP TABLE "miners"`);
  }
}
