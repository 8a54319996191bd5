import { Entity, Index } from 'typeorm';
import { DoubleColumn, IntegerColumn, nullable, PrimaryKey, TimestampColumn } from '@rcs/persistence';

/**
 * What the public leaderboard reads, kept up to date as events arrive instead of summed from all
 * mining history on every call (DECISIONS.md §11). `reputationSum` is the miner's reputation as it
 * stood at `reputationAt` (its newest event), Σ amount·exp(−(reputationAt − t)/D), so the reputation
 * at any later time is reputationSum·exp(−(now − reputationAt)/D), clamped at 0 like the sum it
 * replaces. Every exponent is ≤ 0: no overflow however long the horizon. `decaySeconds` is the D it
 * was summed with; a boot with another SCORE_EMA_DAYS rebuilds it from `reputation_events`.
 * `evaluations` and `evolutions` are counted by triggers on `evaluations` and `algorithms`.
 */
@Entity({ name: 'miner_standings' })
/** Rank descending, then hotkey (the leaderboard's order: migration StandingsRankOrder; TypeORM cannot say DESC here). */
@Index('miner_standings_rank_idx', ['rankKey', 'minerHotkey'], { where: 'rank_key IS NOT NULL' })
export class MinerStandingEntity {
  @PrimaryKey('text', 'miner_standings_pkey')
  minerHotkey!: string;

  @DoubleColumn({ default: 0 })
  reputationSum!: number;

  @TimestampColumn(nullable)
  reputationAt!: Date | null;

  @DoubleColumn(nullable)
  decaySeconds!: number | null;

  @IntegerColumn({ default: 0 })
  evaluations!: number;

  @IntegerColumn({ default: 0 })
  evolutions!: number;

  /**
   * ln(reputationSum) + reputationAt/D (seconds since 1970), set by a trigger; null when the reputation is 0.
   * Ordering by it is ordering by the reputation at any one moment (exp(−now/D) is common to every miner), so
   * the leaderboard reads it by index instead of decaying every miner's sum.
   */
  @DoubleColumn(nullable)
  rankKey!: number | null;
}
