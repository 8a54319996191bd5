import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
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
export class ReputationRepository {
  constructor(@Inject(POOL_CONFIG) private readonly config: PoolServiceConfig) {}

  /** SQL of one miner's decayed reputation over `reputation_events` aliased `r`; `$param` is D in seconds. */
  static decayedSum(param: string): string {
    return `greatest(0, coalesce(sum(r.amount * exp(-extract(epoch FROM (now() - r.created_at)) / ${param})), 0))::float8`;
  }

  get decaySeconds(): number {
    return this.config.mining.scoreEmaDays * 86400;
  }

  /** Records awards; the unique index keeps each (miner, algorithm, kind) once whatever races. */
  async award(manager: EntityManager, awards: ReputationAward[]): Promise<void> {
    if (awards.length === 0) return;
    await manager.query(
      `INSERT INTO reputation_events (miner_hotkey, kind, algorithm_id, amount)
       SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::float8[])
       ON CONFLICT (miner_hotkey, algorithm_id, kind) DO NOTHING`,
      [awards.map((a) => a.minerHotkey), awards.map((a) => a.kind), awards.map((a) => a.algorithmId), awards.map((a) => REPUTATION_AMOUNTS[a.kind])],
    );
  }

  async reputationOf(manager: EntityManager, hotkey: string): Promise<number> {
    const rows = (await manager.query(
      `SELECT ${ReputationRepository.decayedSum('$2')} AS reputation FROM reputation_events r WHERE r.miner_hotkey = $1`,
      [hotkey, this.decaySeconds],
    )) as { reputation: number }[];
    return rows[0]?.reputation ?? 0;
  }
}
