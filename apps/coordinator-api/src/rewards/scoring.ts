import { AcceptedRewardFloorMode, CompetitionMode, MetricDirection, ScoringMode, TaskState } from '@rcs/contracts';
import { hasIdeaRules } from '../tasks/competition-modes';
import { ResolvedCompetitionPolicy } from './reward-policy.resolution';

/**
 * The scoring of DECISIONS.md §7, pure: per competition, for `generated_at = T`, every event earns
 * its points decayed by exp(-(T - t) / D), D = score_ema_days.
 */

export const MS_PER_DAY = 86_400_000;
export const SCORE_SIGNIFICANT_DIGITS = 12;

const ACCEPTED_POINTS = 1.0;
const BEST_POINTS = 1.0;
const IDEA_POINTS_EACH = 0.5;

/** A task as scoring sees it. */
export interface ScoringTask {
  id: string;
  slug: string;
  title: string;
  competitionMode: CompetitionMode;
  taskState: TaskState;
  metricDirection: MetricDirection;
}

/**
 * A task's accepted results as columns, in decision order (`decided_at`, then submission id): the
 * order that decides which of two results within the tolerance is the duplicate.
 */
export interface AcceptedResults {
  length: number;
  minerHotkeys: ArrayLike<string>;
  /** `verified_metric_value`. */
  metrics: ArrayLike<number>;
  /** `decided_at`, epoch milliseconds. */
  decidedAt: ArrayLike<number>;
}

/** The task's current best: its holder, value, and since when (epoch ms) it has been the best. */
export interface CurrentBest {
  minerHotkey: string;
  metricValue: number;
  since: number;
}

/** One idea reward: proposer and implementer, created at (epoch ms). */
export interface IdeaCredit {
  proposerHotkey: string;
  implementerHotkey: string;
  createdAt: number;
}

/** Everything one competition's scores depend on. */
export interface CompetitionData {
  task: ScoringTask;
  accepted: AcceptedResults;
  best: CurrentBest | null;
  /** Oldest first. */
  ideaRewards: readonly IdeaCredit[];
}

export interface ScoreClock {
  /** T, epoch milliseconds. */
  generatedAt: number;
  /** D, days (> 0). */
  scoreEmaDays: number;
}

export interface MinerScore {
  minerHotkey: string;
  /** Rounded to 12 significant digits, > 0. */
  score: number;
}

/** An accepted result in row form, for callers that do not read columns (tests, small fixtures). */
export interface AcceptedRow {
  id: string;
  minerHotkey: string;
  metric: number;
  decidedAt: number;
}

/** Rows → columns in decision order (`decidedAt`, then `id` as Postgres orders uuids: by their lowercase text). */
export function acceptedResults(rows: readonly AcceptedRow[]): AcceptedResults {
  const ordered = [...rows].sort((a, b) => a.decidedAt - b.decidedAt || compareCodeUnits(a.id, b.id));
  return {
    length: ordered.length,
    minerHotkeys: ordered.map((row) => row.minerHotkey),
    metrics: ordered.map((row) => row.metric),
    decidedAt: ordered.map((row) => row.decidedAt),
  };
}

/**
 * The miners of one competition with a positive score, by score descending then hotkey. A disabled
 * competition scores nothing.
 */
export function scoreCompetition(data: CompetitionData, policy: ResolvedCompetitionPolicy, clock: ScoreClock): MinerScore[] {
  if (!policy.enabled) return [];
  const decayMs = clock.scoreEmaDays * MS_PER_DAY;
  // An event stamped after T (clock skew) counts as happening at T: never more than its full points.
  const decayed = (points: number, t: number): number => points * Math.exp(-Math.max(0, clock.generatedAt - t) / decayMs);
  const scores = new Map<string, number>();
  const credit = (hotkey: string, points: number): void => {
    scores.set(hotkey, (scores.get(hotkey) ?? 0) + points);
  };

  if (policy.scoring_mode === ScoringMode.AcceptedPlusBest) {
    const { accepted } = data;
    const passesFloor = floorOf(policy, data.task.metricDirection, accepted, data.best);
    const duplicate = duplicateFlags(accepted.metrics, accepted.length, policy.accepted_reward_metric_tolerance);
    for (let i = 0; i < accepted.length; i++) {
      if (duplicate[i] === 0 && passesFloor(accepted.metrics[i])) credit(accepted.minerHotkeys[i], decayed(ACCEPTED_POINTS, accepted.decidedAt[i]));
    }
  }
  if (data.best !== null) credit(data.best.minerHotkey, decayed(BEST_POINTS, data.best.since));
  if (policy.scoring_mode === ScoringMode.AcceptedPlusBest && hasIdeaRules(data.task.competitionMode)) {
    for (const idea of data.ideaRewards) {
      credit(idea.proposerHotkey, decayed(IDEA_POINTS_EACH, idea.createdAt));
      credit(idea.implementerHotkey, decayed(IDEA_POINTS_EACH, idea.createdAt));
    }
  }
  return rankMiners(scores);
}

/** `x` rounded to 12 significant digits; the shortest form of the result never shows more digits. */
export function roundScore(x: number): number {
  return Number(x.toPrecision(SCORE_SIGNIFICANT_DIGITS));
}

function rankMiners(scores: Map<string, number>): MinerScore[] {
  const miners: MinerScore[] = [];
  for (const [minerHotkey, raw] of scores) {
    const score = roundScore(raw);
    if (score > 0) miners.push({ minerHotkey, score });
  }
  return miners.sort((a, b) => b.score - a.score || compareCodeUnits(a.minerHotkey, b.minerHotkey));
}

/** Locale-free string order (UTF-16 code units), the same on every machine. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The floor an accepted metric must pass. `fixed` with a null value has nothing to compare with and
 * lets everything pass. `best_population_stddev` compares with the task's current best and the
 * population standard deviation (divide by N) of every accepted value of the task — duplicates and
 * results below the floor included — and applies only from `min_samples` accepted values on and
 * while the task has a best.
 */
function floorOf(
  policy: ResolvedCompetitionPolicy,
  direction: MetricDirection,
  accepted: AcceptedResults,
  best: CurrentBest | null,
): (metric: number) => boolean {
  const atLeastAsGoodAs = (limit: number) =>
    direction === MetricDirection.Maximize ? (metric: number) => metric >= limit : (metric: number) => metric <= limit;
  switch (policy.accepted_reward_floor_mode) {
    case AcceptedRewardFloorMode.Disabled:
      return () => true;
    case AcceptedRewardFloorMode.Fixed:
      return policy.accepted_reward_floor_value === null ? () => true : atLeastAsGoodAs(policy.accepted_reward_floor_value);
    case AcceptedRewardFloorMode.BestPopulationStddev: {
      if (best === null || accepted.length < policy.accepted_reward_floor_min_samples) return () => true;
      const band = policy.accepted_reward_floor_stddevs * populationStdDev(accepted.metrics, accepted.length);
      return atLeastAsGoodAs(direction === MetricDirection.Maximize ? best.metricValue - band : best.metricValue + band);
    }
  }
}

/** Two passes (mean, then squared deviations): stable for values far from zero. */
export function populationStdDev(values: ArrayLike<number>, n: number): number {
  if (n === 0) return 0;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += values[i];
  const mean = sum / n;
  let squares = 0;
  for (let i = 0; i < n; i++) squares += (values[i] - mean) ** 2;
  return Math.sqrt(squares / n);
}

/**
 * 1 at each index whose metric lies within `tolerance` (|a − b| ≤ tolerance) of the metric of an
 * earlier index, else 0. O(n log n): sorted by metric, the results within the tolerance of each one
 * form a window that only moves right, and a monotonic deque keeps the earliest index in the window.
 */
export function duplicateFlags(metrics: ArrayLike<number>, n: number, tolerance: number): Uint8Array {
  const flags = new Uint8Array(n);
  const byMetric = new Uint32Array(n);
  for (let i = 0; i < n; i++) byMetric[i] = i;
  byMetric.sort((a, b) => metrics[a] - metrics[b] || a - b);
  // Positions in byMetric whose decision index increases from front to back; the front is the window's earliest.
  const deque = new Uint32Array(n);
  let head = 0;
  let tail = 0;
  let lo = 0;
  let hi = 0;
  for (let p = 0; p < n; p++) {
    const metric = metrics[byMetric[p]];
    while (hi < n && metrics[byMetric[hi]] - metric <= tolerance) {
      while (tail > head && byMetric[deque[tail - 1]] >= byMetric[hi]) tail--;
      deque[tail++] = hi++;
    }
    while (metric - metrics[byMetric[lo]] > tolerance) lo++;
    while (deque[head] < lo) head++;
    if (byMetric[deque[head]] < byMetric[p]) flags[byMetric[p]] = 1;
  }
  return flags;
}
