import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { booleanColumn, nullableFloatColumn, queryOneRow } from '@rcs/persistence';
import { DataSource, EntityManager } from 'typeorm';
import { PoolServiceConfig } from '../config/config';
import { POOL_CONFIG } from '../config/config.module';
import type { ReputationEventKind } from './entities/reputation-event.entity';

/** Reputation amounts per event (DECISIONS.md §11). */
export const REPUTATION_AMOUNTS: Record<ReputationEventKind, number> = {
  evaluation_in_consensus: 1.0,
  evaluation_out_of_consensus: -0.5,
  evolution_improved: 2.0,
};

export interface ReputationAward {
  minerHotkey: string;
  kind: ReputationEventKind;
  algorithmId: number;
}

/** Reputation events and their decayed sum: Σ amount·exp(−(now − t)/D), never below 0. */
@Injectable()
export class ReputationRepository implements OnApplicationBootstrap {
  constructor(
    @Inject(POOL_CONFIG) private readonly config: PoolServiceConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** Builds the standings' reputation sums when they were summed with another D, or never (first boot after the migration). */
  async onApplicationBootstrap(): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      // Holds awards off while it sums, so none is counted twice or lost.
      await manager.query(`LOCK TABLE reputation_events IN SHARE MODE`);
      const stale = await queryOneRow(
        manager,
        `SELECT (EXISTS (SELECT 1 FROM miner_standings WHERE reputation_at IS NOT NULL AND decay_seconds <> $1)
                 OR EXISTS (SELECT 1 FROM reputation_events r WHERE NOT EXISTS (
                      SELECT 1 FROM miner_standings s WHERE s.miner_hotkey = r.miner_hotkey AND s.reputation_at IS NOT NULL)))
                AS stale`,
        [this.decaySeconds],
        (row) => booleanColumn(row, 'stale'),
      );
      if (stale) await this.rebuildStandings(manager);
    });
  }

  /** Sums every miner's events again into its standing, decayed to its newest event (the same sum `award` keeps). */
  async rebuildStandings(manager: EntityManager): Promise<void> {
    await manager.query(`UPDATE miner_standings SET reputation_sum = 0, reputation_at = NULL, decay_seconds = $1`, [this.decaySeconds]);
    await manager.query(
      `WITH e AS (SELECT miner_hotkey, amount, created_at, max(created_at) OVER (PARTITION BY miner_hotkey) AS at FROM reputation_events)
       INSERT INTO miner_standings (miner_hotkey, reputation_sum, reputation_at, decay_seconds)
       SELECT miner_hotkey, sum(amount * exp(extract(epoch FROM created_at - at) / $1)), at, $1 FROM e GROUP BY miner_hotkey, at
       ON CONFLICT (miner_hotkey) DO UPDATE SET reputation_sum = EXCLUDED.reputation_sum, reputation_at = EXCLUDED.reputation_at, decay_seconds = $1`,
      [this.decaySeconds],
    );
  }

  /** SQL of a miner's reputation now from its standing aliased `s`; `$param` is D in seconds. Equal to `decayedSum` over its events. */
  static standingReputation(param: string): string {
    return `coalesce(greatest(0, s.reputation_sum * exp(-extract(epoch FROM (now() - s.reputation_at)) / ${param})), 0)::float8`;
  }

  /** SQL of one miner's decayed reputation over `reputation_events` aliased `r`; `$param` is D in seconds. */
  static decayedSum(param: string): string {
    return `greatest(0, coalesce(sum(r.amount * exp(-extract(epoch FROM (now() - r.created_at)) / ${param})), 0))::float8`;
  }

  get decaySeconds(): number {
    return this.config.mining.scoreEmaDays * 86400;
  }

  /**
   * Records awards; the unique index keeps each (miner, algorithm, kind) once whatever races. In the
   * same statement each new event is added to its miner's standing, re-decayed to the newer of the
   * standing's time and the event's (both exponents ≤ 0; the row lock of the upsert orders concurrent awards).
   */
  async award(manager: EntityManager, awards: ReputationAward[]): Promise<void> {
    if (awards.length === 0) return;
    await manager.query(
      `WITH ins AS (
         INSERT INTO reputation_events (miner_hotkey, kind, algorithm_id, amount)
         SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::float8[])
         ON CONFLICT (miner_hotkey, algorithm_id, kind) DO NOTHING
         RETURNING miner_hotkey, amount, created_at),
       e AS (SELECT miner_hotkey, amount, created_at, max(created_at) OVER (PARTITION BY miner_hotkey) AS at FROM ins)
       INSERT INTO miner_standings AS s (miner_hotkey, reputation_sum, reputation_at, decay_seconds)
       SELECT miner_hotkey, sum(amount * exp(extract(epoch FROM created_at - at) / $5)), at, $5 FROM e GROUP BY miner_hotkey, at
       ON CONFLICT (miner_hotkey) DO UPDATE SET
         reputation_sum = CASE WHEN s.reputation_at IS NULL THEN EXCLUDED.reputation_sum
           ELSE s.reputation_sum * exp(extract(epoch FROM s.reputation_at - greatest(s.reputation_at, EXCLUDED.reputation_at)) / $5)
              + EXCLUDED.reputation_sum * exp(extract(epoch FROM EXCLUDED.reputation_at - greatest(s.reputation_at, EXCLUDED.reputation_at)) / $5) END,
         reputation_at = greatest(s.reputation_at, EXCLUDED.reputation_at),
         decay_seconds = $5`,
      [awards.map((a) => a.minerHotkey), awards.map((a) => a.kind), awards.map((a) => a.algorithmId), awards.map((a) => REPUTATION_AMOUNTS[a.kind]), this.decaySeconds],
    );
  }

  async reputationOf(manager: EntityManager, hotkey: string): Promise<number> {
    const reputation = await queryOneRow(
      manager,
      `SELECT ${ReputationRepository.decayedSum('$2')} AS reputation FROM reputation_events r WHERE r.miner_hotkey = $1`,
      [hotkey, this.decaySeconds],
      (row) => nullableFloatColumn(row, 'reputation'),
    );
    return reputation ?? 0;
  }
}
