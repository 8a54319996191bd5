import { MetricDirection, MetricResolutionMode, RankingMode } from '../enums';

/**
 * How a task ranks results (DECISIONS.md §3): the coordinator decides a task's best by this rule, and the
 * web ranks its tables by the same code (through `@rcs/contracts/ranking`, which imports nothing else).
 */
export interface RankingRule {
  direction: MetricDirection;
  /** Minimum improvement that counts; 0 means any strict improvement. */
  resolution: number;
  resolutionMode: MetricResolutionMode;
  rankingMode: RankingMode;
  /** Null when the task has no secondary metric. */
  secondaryDirection: MetricDirection | null;
}

export interface RankedValue {
  metric: number;
  secondary: number | null;
}

/** Why a candidate did or did not replace the incumbent; kept in logs and tests. */
export type RankingOutcome =
  | 'first_result'
  | 'beats_by_resolution'
  | 'secondary_better_within_band'
  | 'pareto_dominates'
  | 'not_better'
  | 'not_comparable';

/** Signed gain of `candidate` over `incumbent` in the metric's own scale: positive means better. */
function gain(candidate: number, incumbent: number, direction: MetricDirection): number {
  return direction === MetricDirection.Maximize ? candidate - incumbent : incumbent - candidate;
}

/** Primary gain in the rule's resolution scale (natural logs in `log` mode: the "nats" band); null when undefined. */
export function primaryGain(candidate: number, incumbent: number, rule: RankingRule): number | null {
  if (rule.resolutionMode === MetricResolutionMode.Log) {
    if (!(candidate > 0 && incumbent > 0)) return null;
    return gain(Math.log(candidate), Math.log(incumbent), rule.direction);
  }
  return gain(candidate, incumbent, rule.direction);
}

function secondaryGain(candidate: RankedValue, incumbent: RankedValue, rule: RankingRule): number | null {
  if (rule.secondaryDirection === null || candidate.secondary === null || incumbent.secondary === null) return null;
  return gain(candidate.secondary, incumbent.secondary, rule.secondaryDirection);
}

/**
 * Decides whether `candidate` becomes the new best. Scalar: it beats the incumbent by at least the
 * resolution, or lies within the band and is strictly better on the secondary metric. Pareto: it is at
 * least as good on both metrics (primary with the band) and strictly better on one.
 */
export function rankAgainst(candidate: RankedValue, incumbent: RankedValue | null, rule: RankingRule): RankingOutcome {
  if (!Number.isFinite(candidate.metric)) return 'not_comparable';
  if (incumbent === null) return 'first_result';
  const primary = primaryGain(candidate.metric, incumbent.metric, rule);
  if (primary === null) return 'not_comparable';
  const band = rule.resolution;
  const primaryWins = primary > 0 && primary >= band;
  const secondary = secondaryGain(candidate, incumbent, rule);

  if (rule.rankingMode === RankingMode.Pareto && secondary !== null) {
    const atLeastAsGood = primary >= -band && secondary >= 0;
    return atLeastAsGood && (primaryWins || secondary > 0) ? 'pareto_dominates' : 'not_better';
  }
  if (primaryWins) return 'beats_by_resolution';
  if (Math.abs(primary) <= band && secondary !== null && secondary > 0) return 'secondary_better_within_band';
  return 'not_better';
}

export function replacesIncumbent(outcome: RankingOutcome): boolean {
  return outcome === 'first_result' || outcome === 'beats_by_resolution' || outcome === 'secondary_better_within_band' || outcome === 'pareto_dominates';
}
