import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The leaderboard's aggregate (DECISIONS.md §11, README "Pool"): one row per miner with its decayed
 * reputation as of its newest event and its evaluation and evolution counts, so the public
 * leaderboard no longer reads all mining history. The counts are kept by triggers and backfilled
 * here; the reputation sums need SCORE_EMA_DAYS, so the service builds them at its first boot.
 */
export class MinerStandings1795800000000 implements MigrationInterface {
  name = 'MinerStandings1795800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "miner_standings" ("miner_hotkey" text NOT NULL, "reputation_sum" double precision NOT NULL DEFAULT '0', "reputation_at" TIMESTAMP WITH TIME ZONE, "decay_seconds" double precision, "evaluations" integer NOT NULL DEFAULT '0', "evolutions" integer NOT NULL DEFAULT '0', CONSTRAINT "miner_standings_pkey" PRIMARY KEY ("miner_hotkey"))`,
    );
    await queryRunner.query(`CREATE FUNCTION miner_standings_count_evaluation() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO miner_standings (miner_hotkey, evaluations) VALUES (NEW.miner_hotkey, 1)
        ON CONFLICT (miner_hotkey) DO UPDATE SET evaluations = miner_standings.evaluations + 1;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`CREATE FUNCTION miner_standings_count_evolution() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO miner_standings (miner_hotkey, evolutions) VALUES (NEW.author_hotkey, 1)
        ON CONFLICT (miner_hotkey) DO UPDATE SET evolutions = miner_standings.evolutions + 1;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`CREATE TRIGGER evaluations_count_standing AFTER INSERT ON evaluations FOR EACH ROW EXECUTE FUNCTION miner_standings_count_evaluation()`);
    await queryRunner.query(
      `CREATE TRIGGER algorithms_count_standing AFTER INSERT ON algorithms FOR EACH ROW WHEN (NEW.author_hotkey IS NOT NULL) EXECUTE FUNCTION miner_standings_count_evolution()`,
    );
    await queryRunner.query(`INSERT INTO miner_standings (miner_hotkey, evaluations, evolutions)
      SELECT hotkey, sum(e)::int, sum(a)::int FROM (
        SELECT miner_hotkey AS hotkey, count(*) AS e, 0 AS a FROM evaluations GROUP BY miner_hotkey
        UNION ALL
        SELECT author_hotkey, 0, count(*) FROM algorithms WHERE author_hotkey IS NOT NULL GROUP BY author_hotkey
      ) c GROUP BY hotkey`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER algorithms_count_standing ON algorithms`);
    await queryRunner.query(`DROP TRIGGER evaluations_count_standing ON evaluations`);
    await queryRunner.query(`DROP FUNCTION miner_standings_count_evolution()`);
    await queryRunner.query(`DROP FUNCTION miner_standings_count_evaluation()`);
    await queryRunner.query(`DROP TABLE "miner_standings"`);
  }
}
