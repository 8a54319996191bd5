import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The leaderboard's aggregate (DECISIONS.md §11, docs/pool-and-payouts.md): one row per miner with its decayed
 * reputation as of its newest event and its evaluation and evolution counts, so the public
 * leaderboard no longer reads all mining history. The counts are kept by triggers and backfilled
 * here; the reputation sums need SCORE_EMA_DAYS, so the service builds them at its first boot. `rank_key`
 * (set by a trigger from the sum) orders the miners with positive reputation by an index.
 */
export class MinerStandings1795800000000 implements MigrationInterface {
  name = 'MinerStandings1795800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "miner_standings" ("miner_hotkey" text NOT NULL, "reputation_sum" double precision NOT NULL DEFAULT '0', "reputation_at" TIMESTAMP WITH TIME ZONE, "decay_seconds" double precision, "evaluations" integer NOT NULL DEFAULT '0', "evolutions" integer NOT NULL DEFAULT '0', "rank_key" double precision, CONSTRAINT "miner_standings_pkey" PRIMARY KEY ("miner_hotkey"))`,
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
    await queryRunner.query(`CREATE INDEX "miner_standings_rank_idx" ON "miner_standings" ("rank_key") WHERE rank_key IS NOT NULL`);
    // ln of the reputation scaled to a fixed origin (1970): ordering by it is ordering by the reputation now, whenever
    // now is (the decay factor exp(−now/D) is common to every miner), so the leaderboard is an index scan.
    await queryRunner.query(`CREATE FUNCTION miner_standings_rank() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.rank_key := CASE WHEN NEW.reputation_sum > 0 AND NEW.reputation_at IS NOT NULL AND NEW.decay_seconds > 0
          THEN ln(NEW.reputation_sum) + extract(epoch FROM NEW.reputation_at)::float8 / NEW.decay_seconds END;
        RETURN NEW;
      END $$`);
    await queryRunner.query(`CREATE TRIGGER miner_standings_rank BEFORE INSERT OR UPDATE ON miner_standings FOR EACH ROW EXECUTE FUNCTION miner_standings_rank()`);
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
    await queryRunner.query(`DROP TRIGGER miner_standings_rank ON miner_standings`);
    await queryRunner.query(`DROP FUNCTION miner_standings_rank()`);
    await queryRunner.query(`DROP FUNCTION miner_standings_count_evolution()`);
    await queryRunner.query(`DROP FUNCTION miner_standings_count_evaluation()`);
    await queryRunner.query(`DROP TABLE "miner_standings"`);
  }
}
