import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ReputationRepository } from '../reputation/reputation.module';
import { AssignmentEntity } from '../assignments/entities/assignment.entity';
import { MinerEntity } from './entities/miner.entity';
import { RecipientChangeEntity, type RecipientChangeKind } from './entities/recipient-change.entity';

export interface RecipientChange {
  hotkey: string;
  kind: RecipientChangeKind;
  coldkey: string;
  signedColdkey: string;
  signedTimestamp: string;
  signature: string;
  route: string;
}

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

/** Miners, their recipients and the history of recipient changes. */
@Injectable()
export class MinersRepository {
  constructor(private readonly reputation: ReputationRepository) {}

  /** Every recipient change of a hotkey, oldest first. */
  history(manager: EntityManager, hotkey: string): Promise<RecipientChangeEntity[]> {
    return manager.find(RecipientChangeEntity, { where: { hotkey }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** Creates the miner or refreshes `last_seen_at`, in one statement. */
  async touch(manager: EntityManager, hotkey: string): Promise<MinerEntity> {
    await manager.query(
      `INSERT INTO miners (hotkey) VALUES ($1) ON CONFLICT (hotkey) DO UPDATE SET last_seen_at = now()`,
      [hotkey],
    );
    return manager.findOneByOrFail(MinerEntity, { hotkey });
  }

  /** `touch` without reading the row back (hot paths). */
  async touchQuietly(manager: EntityManager, hotkey: string): Promise<void> {
    await manager.query(`INSERT INTO miners (hotkey) VALUES ($1) ON CONFLICT (hotkey) DO UPDATE SET last_seen_at = now()`, [hotkey]);
  }

  find(manager: EntityManager, hotkey: string): Promise<MinerEntity | null> {
    return manager.findOneBy(MinerEntity, { hotkey });
  }

  /** Stores the recipient (or the root declaration) and its history row, creating the miner if needed. */
  async recordColdkey(manager: EntityManager, change: RecipientChange): Promise<MinerEntity> {
    const [column, at] = change.kind === 'recipient' ? ['recipient_coldkey', 'recipient_updated_at'] : ['declared_coldkey', 'declared_at'];
    await manager.query(
      `INSERT INTO miners (hotkey, ${column}, ${at}) VALUES ($1, $2, now())
       ON CONFLICT (hotkey) DO UPDATE SET ${column} = EXCLUDED.${column}, ${at} = now(), last_seen_at = now()`,
      [change.hotkey, change.coldkey],
    );
    await manager.insert(RecipientChangeEntity, change);
    return manager.findOneByOrFail(MinerEntity, { hotkey: change.hotkey });
  }

  async counts(manager: EntityManager, hotkey: string): Promise<MinerCounts> {
    const rows = (await manager.query(
      `SELECT
         (SELECT count(*) FROM evaluations WHERE miner_hotkey = $1)::int AS evaluations,
         (SELECT count(*) FROM evaluations WHERE miner_hotkey = $1 AND in_consensus)::int AS evaluations_in_consensus,
         (SELECT count(*) FROM algorithms WHERE author_hotkey = $1)::int AS evolutions,
         (SELECT count(*) FROM algorithms WHERE author_hotkey = $1 AND status = 'scored')::int AS evolutions_scored`,
      [hotkey],
    )) as { evaluations: number; evaluations_in_consensus: number; evolutions: number; evolutions_scored: number }[];
    const row = rows[0];
    return {
      evaluations: row.evaluations,
      evaluationsInConsensus: row.evaluations_in_consensus,
      evolutions: row.evolutions,
      evolutionsScored: row.evolutions_scored,
    };
  }

  reputationOf(manager: EntityManager, hotkey: string): Promise<number> {
    return this.reputation.reputationOf(manager, hotkey);
  }

  async poolCounts(manager: EntityManager): Promise<PoolCounts> {
    const rows = (await manager.query(
      `SELECT
         (SELECT count(*) FROM miners)::int AS miners,
         (SELECT count(*) FROM miners WHERE last_seen_at > now() - interval '24 hours')::int AS active,
         (SELECT count(*) FROM algorithms)::int AS algorithms,
         (SELECT count(*) FROM algorithms WHERE status = 'pending')::int AS pending`,
    )) as { miners: number; active: number; algorithms: number; pending: number }[];
    const row = rows[0];
    return { miners: row.miners, activeMiners24h: row.active, algorithms: row.algorithms, pendingAlgorithms: row.pending };
  }

  /**
   * Miners by decayed reputation, then hotkey. Those with a positive reputation come by the index on
   * `rank_key` (the same order, whatever the time); the rest, all at 0, follow by hotkey.
   */
  async leaderboard(manager: EntityManager, limit: number): Promise<LeaderboardRow[]> {
    type Row = { hotkey: string; last_seen_at: Date; reputation: number; evaluations: number; evolutions: number };
    const ranked = (await manager.query(
      `SELECT m.hotkey, m.last_seen_at, ${ReputationRepository.standingReputation('$2')} AS reputation, s.evaluations, s.evolutions
       FROM miner_standings s JOIN miners m ON m.hotkey = s.miner_hotkey
       WHERE s.rank_key IS NOT NULL
       ORDER BY s.rank_key DESC, s.miner_hotkey ASC
       LIMIT $1`,
      [limit, this.reputation.decaySeconds],
    )) as Row[];
    const rest =
      ranked.length >= limit
        ? []
        : ((await manager.query(
            `SELECT m.hotkey, m.last_seen_at, 0::float8 AS reputation, coalesce(s.evaluations, 0)::int AS evaluations, coalesce(s.evolutions, 0)::int AS evolutions
             FROM miners m LEFT JOIN miner_standings s ON s.miner_hotkey = m.hotkey
             WHERE s.rank_key IS NULL
             ORDER BY m.hotkey ASC
             LIMIT $1`,
            [limit - ranked.length],
          )) as Row[]);
    return [...ranked, ...rest].map((row) => ({
      hotkey: row.hotkey,
      reputation: row.reputation,
      evaluations: row.evaluations,
      evolutions: row.evolutions,
      lastSeenAt: row.last_seen_at,
    }));
  }

  /**
   * One miner's row of the leaderboard with its place in that order, or null for a hotkey the pool has
   * never seen. Ranked miners (positive reputation) count those ahead of them by the `rank_key` index;
   * the rest, all at 0, come after every ranked miner, by hotkey.
   */
  async standing(manager: EntityManager, hotkey: string): Promise<(LeaderboardRow & { rank: number }) | null> {
    type Row = { hotkey: string; last_seen_at: Date; reputation: number; evaluations: number; evolutions: number; rank: string };
    const rows = (await manager.query(
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
    )) as Row[];
    const row = rows[0];
    if (row === undefined) return null;
    return { hotkey: row.hotkey, reputation: row.reputation, evaluations: row.evaluations, evolutions: row.evolutions, lastSeenAt: row.last_seen_at, rank: Number(row.rank) };
  }

  /** The miner's active, unexpired batch or lease (stats). */
  activeAssignment(manager: EntityManager, hotkey: string): Promise<AssignmentEntity | null> {
    return manager
      .createQueryBuilder(AssignmentEntity, 'a')
      .where(`a.miner_hotkey = :hotkey AND a.status = 'active' AND a.timeout_at > now()`, { hotkey })
      .getOne();
  }
}
