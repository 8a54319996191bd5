import { Injectable } from '@nestjs/common';
import { floatColumn, intColumn, queryOneRow, queryRows, SqlRow, textColumn, timestampColumn } from '@rcs/persistence';
import { EntityManager } from 'typeorm';
import { AssignmentEntity } from '../assignments/entities/assignment.entity';
import { ReputationRepository } from '../reputation/reputation.module';

export interface MinerCounts {
  evaluations: number;
  evaluationsInConsensus: number;
  evolutions: number;
  evolutionsScored: number;
}

export interface LeaderboardRow {
  hotkey: string;
  reputation: number;
  evaluations: number;
  evolutions: number;
  lastSeenAt: Date;
}

export interface PoolCounts {
  miners: number;
  activeMiners24h: number;
  algorithms: number;
  pendingAlgorithms: number;
}

/** A leaderboard row; `reputation` is float8 and the counts int in every query that answers one. */
function leaderboardRow(row: SqlRow): LeaderboardRow {
  return {
    hotkey: textColumn(row, 'hotkey'),
    reputation: floatColumn(row, 'reputation'),
    evaluations: intColumn(row, 'evaluations'),
    evolutions: intColumn(row, 'evolutions'),
    lastSeenAt: timestampColumn(row, 'last_seen_at'),
  };
}

/**
 * The read model of a miner's standing in the pool: what `/miners/stats`, the leaderboard and a standing
 * show, read across the domains that own it (miners, evaluations and algorithms, reputation standings,
 * assignments). It writes nothing; each domain's repository stays the only writer of its tables.
 */
@Injectable()
export class MinerStatsReadModel {
  constructor(private readonly reputation: ReputationRepository) {}

  async counts(manager: EntityManager, hotkey: string): Promise<MinerCounts> {
    return queryOneRow(
      manager,
      `SELECT
         (SELECT count(*) FROM evaluations WHERE miner_hotkey = $1)::int AS evaluations,
         (SELECT count(*) FROM evaluations WHERE miner_hotkey = $1 AND in_consensus)::int AS evaluations_in_consensus,
         (SELECT count(*) FROM algorithms WHERE author_hotkey = $1)::int AS evolutions,
         (SELECT count(*) FROM algorithms WHERE author_hotkey = $1 AND status = 'scored')::int AS evolutions_scored`,
      [hotkey],
      (row) => ({
        evaluations: intColumn(row, 'evaluations'),
        evaluationsInConsensus: intColumn(row, 'evaluations_in_consensus'),
        evolutions: intColumn(row, 'evolutions'),
        evolutionsScored: intColumn(row, 'evolutions_scored'),
      }),
    );
  }

  reputationOf(manager: EntityManager, hotkey: string): Promise<number> {
    return this.reputation.reputationOf(manager, hotkey);
  }

  async poolCounts(manager: EntityManager): Promise<PoolCounts> {
    return queryOneRow(
      manager,
      `SELECT
         (SELECT count(*) FROM miners)::int AS miners,
         (SELECT count(*) FROM miners WHERE last_seen_at > now() - interval '24 hours')::int AS active,
         (SELECT count(*) FROM algorithms)::int AS algorithms,
         (SELECT count(*) FROM algorithms WHERE status = 'pending')::int AS pending`,
      [],
      (row) => ({
        miners: intColumn(row, 'miners'),
        activeMiners24h: intColumn(row, 'active'),
        algorithms: intColumn(row, 'algorithms'),
        pendingAlgorithms: intColumn(row, 'pending'),
      }),
    );
  }

  /**
   * Miners by decayed reputation, then hotkey. Those with a positive reputation come by the index on
   * `rank_key` (the same order, whatever the time); the rest, all at 0, follow by hotkey.
   */
  async leaderboard(manager: EntityManager, limit: number): Promise<LeaderboardRow[]> {
    const ranked = await queryRows(
      manager,
      `SELECT m.hotkey, m.last_seen_at, ${ReputationRepository.standingReputation('$2')} AS reputation, s.evaluations, s.evolutions
       FROM miner_standings s JOIN miners m ON m.hotkey = s.miner_hotkey
       WHERE s.rank_key IS NOT NULL
       ORDER BY s.rank_key DESC, s.miner_hotkey ASC
       LIMIT $1`,
      [limit, this.reputation.decaySeconds],
      leaderboardRow,
    );
    const rest =
      ranked.length >= limit
        ? []
        : await queryRows(
            manager,
            `SELECT m.hotkey, m.last_seen_at, 0::float8 AS reputation, coalesce(s.evaluations, 0)::int AS evaluations, coalesce(s.evolutions, 0)::int AS evolutions
             FROM miners m LEFT JOIN miner_standings s ON s.miner_hotkey = m.hotkey
             WHERE s.rank_key IS NULL
             ORDER BY m.hotkey ASC
             LIMIT $1`,
            [limit - ranked.length],
            leaderboardRow,
          );
    return [...ranked, ...rest];
  }

  /**
   * One miner's row of the leaderboard with its place in that order, or null for a hotkey the pool has
   * never seen. Ranked miners (positive reputation) count those ahead of them by the `rank_key` index;
   * the rest, all at 0, come after every ranked miner, by hotkey.
   */
  async standing(manager: EntityManager, hotkey: string): Promise<(LeaderboardRow & { rank: number }) | null> {
    const rows = await queryRows(
      manager,
      `WITH me AS (
         SELECT m.hotkey, m.last_seen_at, s.rank_key,
                CASE WHEN s.rank_key IS NULL THEN 0::float8 ELSE ${ReputationRepository.standingReputation('$2')} END AS reputation,
                coalesce(s.evaluations, 0)::int AS evaluations, coalesce(s.evolutions, 0)::int AS evolutions
         FROM miners m LEFT JOIN miner_standings s ON s.miner_hotkey = m.hotkey
         WHERE m.hotkey = $1
       )
       SELECT me.hotkey, me.last_seen_at, me.reputation, me.evaluations, me.evolutions,
              1 + CASE WHEN me.rank_key IS NOT NULL THEN
                    (SELECT count(*) FROM miner_standings s JOIN miners m ON m.hotkey = s.miner_hotkey
                     WHERE s.rank_key IS NOT NULL AND (s.rank_key > me.rank_key OR (s.rank_key = me.rank_key AND s.miner_hotkey < me.hotkey)))
                  ELSE
                    (SELECT count(*) FROM miner_standings s JOIN miners m ON m.hotkey = s.miner_hotkey WHERE s.rank_key IS NOT NULL)
                    + (SELECT count(*) FROM miners m LEFT JOIN miner_standings s ON s.miner_hotkey = m.hotkey
                       WHERE s.rank_key IS NULL AND m.hotkey < me.hotkey)
                  END AS rank
       FROM me`,
      [hotkey, this.reputation.decaySeconds],
      // count(*) is a bigint, which pg answers as text.
      (row) => ({ ...leaderboardRow(row), rank: Number(textColumn(row, 'rank')) }),
    );
    return rows[0] ?? null;
  }

  /** The miner's active, unexpired batch or lease (stats). */
  activeAssignment(manager: EntityManager, hotkey: string): Promise<AssignmentEntity | null> {
    return manager
      .createQueryBuilder(AssignmentEntity, 'a')
      .where(`a.miner_hotkey = :hotkey AND a.status = 'active' AND a.timeout_at > now()`, { hotkey })
      .getOne();
  }
}
