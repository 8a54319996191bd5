/** Consensus settings (DECISIONS.md §11). */
export interface ConsensusRules {
  k: number;
  toleranceRatio: number;
  toleranceAbs: number;
  maxEvaluations: number;
}

export interface ScoredEvaluation {
  id: string;
  score: number;
}

export type ConsensusOutcome =
  | { kind: 'scored'; score: number; inConsensus: Set<string> }
  | { kind: 'rejected' }
  | { kind: 'pending' };

/** The median; of two middle values `a + (b − a)/2`, which stays finite wherever `a` and `b` are (`(a + b)/2` overflows near the float maximum). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length % 2 === 1) return sorted[mid];
  const [a, b] = [sorted[mid - 1], sorted[mid]];
  return a + (b - a) / 2;
}

/** Whether `score` lies within tolerance of `centre`: relative POOL_TOLERANCE_RATIO, absolute POOL_TOLERANCE_ABS near zero. */
export function withinTolerance(score: number, centre: number, rules: Pick<ConsensusRules, 'toleranceRatio' | 'toleranceAbs'>): boolean {
  return Math.abs(score - centre) <= Math.max(rules.toleranceRatio * Math.abs(centre), rules.toleranceAbs);
}

/**
 * Decides an algorithm from its evaluations (one per miner): scored when at least k of them lie within
 * tolerance of their median (the largest such group, then the tightest; its median is the score), rejected
 * after `maxEvaluations` without one, else still pending. A group that agrees is contiguous in score order,
 * so contiguous runs are all that need checking.
 */
export function decideConsensus(evaluations: ScoredEvaluation[], rules: ConsensusRules): ConsensusOutcome {
  const sorted = [...evaluations].sort((a, b) => a.score - b.score || a.id.localeCompare(b.id));
  let best: { from: number; to: number; centre: number; spread: number } | null = null;
  for (let from = 0; from < sorted.length; from++) {
    for (let to = from + rules.k - 1; to < sorted.length; to++) {
      const group = sorted.slice(from, to + 1);
      const centre = median(group.map((e) => e.score));
      if (!group.every((e) => withinTolerance(e.score, centre, rules))) continue;
      const size = to - from + 1;
      const spread = group[group.length - 1].score - group[0].score;
      if (best === null || size > best.to - best.from + 1 || (size === best.to - best.from + 1 && spread < best.spread)) {
        best = { from, to, centre, spread };
      }
    }
  }
  if (best !== null) {
    return { kind: 'scored', score: best.centre, inConsensus: new Set(sorted.slice(best.from, best.to + 1).map((e) => e.id)) };
  }
  return evaluations.length >= rules.maxEvaluations ? { kind: 'rejected' } : { kind: 'pending' };
}
