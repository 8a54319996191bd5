import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The leaderboard's whole order in its index: rank descending, then hotkey ascending. With `rank_key`
 * alone, miners of equal rank were sorted after the scan; now the first `limit` entries of the index are
 * the answer, and the read stops there.
 */
export class StandingsRankOrder1796000000000 implements MigrationInterface {
  name = 'StandingsRankOrder1796000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "miner_standings_rank_idx"`);
    await queryRunner.query(
      `CREATE INDEX "miner_standings_rank_idx" ON "miner_standings" ("rank_key" DESC, "miner_hotkey" ASC) WHERE rank_key IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "miner_standings_rank_idx"`);
    await queryRunner.query(`CREATE INDEX "miner_standings_rank_idx" ON "miner_standings" ("rank_key") WHERE rank_key IS NOT NULL`);
  }
}
