import type { RewardSnapshotDto, WeightSetterStatusDto } from '@rcs/contracts';

/** A miner's part of the current reward snapshot. */
export interface MinerShares {
  hotkey: string;
  /** Per competition: its score and its share of the competition's scores. */
  competitions: { competition_id: string; slug: string; title: string; score: number; share: number }[];
  /** Σ over competitions of (share × competition weight) / Σ weights of competitions that have scores, as the weight setter's `local` mode splits them. */
  overall: number;
}

/**
 * Every scored miner's shares, largest overall first (ties by hotkey). A competition's share is the
 * miner's score over the sum of scores there; overall, competitions count by their policy weight,
 * and only those with at least one score (a competition without one gives nobody anything).
 */
export function snapshotShares(snapshot: RewardSnapshotDto): MinerShares[] {
  const byMiner = new Map<string, MinerShares>();
  const scored = snapshot.competitions.filter((c) => c.miners.some((m) => m.score > 0));
  const totalWeight = scored.reduce((sum, c) => sum + c.weight, 0);
  for (const competition of scored) {
    const total = competition.miners.reduce((sum, m) => sum + m.score, 0);
    for (const miner of competition.miners) {
      const share = miner.score / total;
      const entry = byMiner.get(miner.miner_hotkey) ?? { hotkey: miner.miner_hotkey, competitions: [], overall: 0 };
      entry.competitions.push({ competition_id: competition.competition_id, slug: competition.slug, title: competition.title, score: miner.score, share });
      entry.overall += totalWeight > 0 ? (share * competition.weight) / totalWeight : 0;
      byMiner.set(miner.miner_hotkey, entry);
    }
  }
  return [...byMiner.values()].sort((a, b) => b.overall - a.overall || (a.hotkey < b.hotkey ? -1 : a.hotkey > b.hotkey ? 1 : 0));
}

/** The weight the validator's last pass gave a hotkey (a fraction, Σ = 1), null when the pass named no weights or the hotkey got none. */
export function weightOf(status: WeightSetterStatusDto | null, hotkey: string): { weight: number; uid: number } | null {
  const entry = status?.last_pass?.weights.find((w) => w.hotkey === hotkey);
  return entry ? { weight: entry.weight, uid: entry.uid } : null;
}

/**
 * Scored miners the validator's last pass gave no weight: in `local` mode a hotkey without a uid on the
 * subnet is dropped, and what is left goes to uid 0 (docs/weight-setter.md). Empty without a pass or
 * when the pass was not `local` (burn_uid0 and targets never follow the scores).
 */
export function scoredWithoutWeight(shares: readonly MinerShares[], status: WeightSetterStatusDto | null): MinerShares[] {
  const pass = status?.last_pass;
  if (!pass || pass.mode !== 'local') return [];
  const weighted = new Set(pass.weights.filter((w) => w.weight > 0).map((w) => w.hotkey));
  return shares.filter((miner) => miner.overall > 0 && !weighted.has(miner.hotkey));
}
