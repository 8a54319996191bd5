import { MetricDirection, ReleaseState } from '@rcs/contracts';

/** Bits one release costs (DECISIONS §17): which of up to `kMax` submissions, and which of `levels` grid values. */
export function releaseCostBits(kMax = 1024, levels = 64): number {
  return Math.ceil(Math.log2(kMax)) + Math.ceil(Math.log2(levels));
}

/** The default release cost: 16 bits. */
export const RELEASE_COST_BITS = releaseCostBits();

/** The smallest budget a shard gets: one release. */
export const MIN_BUDGET_BITS = RELEASE_COST_BITS;

/**
 * A shard's default budget from its size (DECISIONS §17): `(n·step²/(2σ²) − ln(2/δ)) / ln 2` bits, floored at
 * one release. `sigma` is the per-item spread of the first replays; without it (no `per_item`) the floor.
 */
export function defaultBudgetBits(n: number | null, step: number, sigma: number | null, delta: number): number {
  if (n === null || sigma === null || !(sigma > 0) || !(n > 0)) return MIN_BUDGET_BITS;
  const bits = ((n * step * step) / (2 * sigma * sigma) - Math.log(2 / delta)) / Math.LN2;
  return Math.max(MIN_BUDGET_BITS, Math.floor(bits));
}

/** What the release rule needs of a task and its active shard. */
export interface ReleaseRule {
  direction: MetricDirection;
  /** The release grid and the least improvement released (in the metric's own units). */
  step: number;
  /** Bits each release costs. */
  costBits: number;
}

/** A shard's exposure as the rule reads it. */
export interface ExposureState {
  /** The released best R; null before the first release on this shard. */
  releasedBest: number | null;
  spentBits: number;
  budgetBits: number;
}

/** The candidate: its raw metric and, when the benchmark reported them, per-item differences against the leader. */
export interface ReleaseCandidate {
  raw: number;
  /** Per-document differences (candidate − leader) when both report `per_item`; null otherwise. */
  pairedDifferences?: readonly number[] | null;
}

/** The rule's answer: what the public sees, and the shard's exposure after it. */
export interface ReleaseOutcome {
  release: ReleaseState;
  /** The value the public sees: the raw metric on the step grid when improved, else the previous R (null before any). */
  released: number | null;
  state: ExposureState;
}

/** `value` on the `step` grid (a zero step keeps it exact). */
export function onGrid(value: number, step: number): number {
  if (!(step > 0)) return value;
  // Rounded twice: the grid multiple, then away the binary noise of `k · step` (0.1 · 3 is 0.30000000000000004).
  return Number((Math.round(value / step) * step).toPrecision(12));
}

/** The sample standard deviation of at least two values. */
export function spread(values: readonly number[]): number {
  const n = values.length;
  const mean = values.reduce((sum, value) => sum + value, 0) / n;
  return Math.sqrt(values.reduce((sum, value) => sum + (value - mean) * (value - mean), 0) / (n - 1));
}

/** The threshold a candidate must beat R by: `max(step, s/√n)` with `s` the paired per-item spread when known. */
export function releaseThreshold(step: number, pairedDifferences: readonly number[] | null | undefined): number {
  if (!pairedDifferences || pairedDifferences.length < 2) return step;
  return Math.max(step, spread(pairedDifferences) / Math.sqrt(pairedDifferences.length));
}

/**
 * The release rule and the budget (DECISIONS §17), the one place both are decided: a result is released only
 * when it beats R by more than the threshold, and only while the shard's budget has room for one more release;
 * otherwise the public sees the previous R, as `not_significant` or `held_for_rotation`.
 */
export function decideRelease(rule: ReleaseRule, state: ExposureState, candidate: ReleaseCandidate): ReleaseOutcome {
  const threshold = releaseThreshold(rule.step, candidate.pairedDifferences);
  const gain = state.releasedBest === null ? Infinity : rule.direction === MetricDirection.Maximize ? candidate.raw - state.releasedBest : state.releasedBest - candidate.raw;
  if (!(gain > threshold)) return { release: ReleaseState.NotSignificant, released: state.releasedBest, state };
  if (state.spentBits + rule.costBits > state.budgetBits) return { release: ReleaseState.HeldForRotation, released: state.releasedBest, state };
  const released = onGrid(candidate.raw, rule.step);
  return { release: ReleaseState.Improved, released, state: { ...state, releasedBest: released, spentBits: state.spentBits + rule.costBits } };
}
