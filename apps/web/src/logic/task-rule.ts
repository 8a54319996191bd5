import type { BestResultChangeDto, TaskDto } from '@rcs/contracts';
import { formatMetric } from './format';

/**
 * How a task decides its best (DECISIONS.md §3), as the coordinator applies it (its best-result rules):
 * a result beats another by at least `resolution` on the primary metric (natural logs in `log` mode,
 * the "nats" band), or lies within that band and is strictly better on the secondary metric. Pareto:
 * at least as good on both (primary with the band) and strictly better on one.
 */
export interface TaskRule {
  metric: string;
  direction: string;
  resolution: number;
  resolutionMode: string;
  rankingMode: string;
  /** Null when the task has no secondary metric. */
  secondary: { name: string; direction: string } | null;
}

export interface RuleValue {
  metric: number;
  secondary: number | null;
}

export function taskRule(task: Pick<TaskDto, 'metric_name' | 'metric_direction' | 'metric_resolution' | 'metric_resolution_mode' | 'ranking_mode' | 'secondary_metric_name' | 'secondary_metric_direction'>): TaskRule {
  const secondary = task.secondary_metric_name && task.secondary_metric_direction ? { name: task.secondary_metric_name, direction: String(task.secondary_metric_direction) } : null;
  return {
    metric: task.metric_name,
    direction: String(task.metric_direction),
    resolution: task.metric_resolution ?? 0,
    resolutionMode: String(task.metric_resolution_mode ?? 'absolute'),
    rankingMode: String(task.ranking_mode ?? 'scalar'),
    secondary,
  };
}

function gain(candidate: number, incumbent: number, direction: string): number {
  return direction === 'maximize' ? candidate - incumbent : incumbent - candidate;
}

/** `candidate`'s primary gain over `incumbent` in the band's scale (positive: better); null when logs are undefined. */
function primaryGain(rule: TaskRule, candidate: number, incumbent: number): number | null {
  if (rule.resolutionMode === 'log') return candidate > 0 && incumbent > 0 ? gain(Math.log(candidate), Math.log(incumbent), rule.direction) : null;
  return gain(candidate, incumbent, rule.direction);
}

function secondaryGain(rule: TaskRule, candidate: RuleValue, incumbent: RuleValue): number | null {
  if (rule.secondary === null || candidate.secondary === null || incumbent.secondary === null) return null;
  return gain(candidate.secondary, incumbent.secondary, rule.secondary.direction);
}

/** Whether `candidate` would replace `incumbent` as the task's best. */
export function beats(rule: TaskRule, candidate: RuleValue, incumbent: RuleValue): boolean {
  const primary = primaryGain(rule, candidate.metric, incumbent.metric);
  if (primary === null) return false;
  const primaryWins = primary > 0 && primary >= rule.resolution;
  const secondary = secondaryGain(rule, candidate, incumbent);
  if (rule.rankingMode === 'pareto' && secondary !== null) return primary >= -rule.resolution && secondary >= 0 && (primaryWins || secondary > 0);
  if (primaryWins) return true;
  return Math.abs(primary) <= rule.resolution && secondary !== null && secondary > 0;
}

/**
 * Rows best first by the task's rule: by the primary metric, then each row moved ahead of the first
 * row it beats (so a slightly worse but smaller model inside the band ranks above the one it replaced).
 * `tieBreak` orders rows with equal values (the earlier decision first).
 */
export function rankByRule<T>(rows: readonly T[], rule: TaskRule, value: (row: T) => RuleValue, tieBreak: (a: T, b: T) => number = () => 0): T[] {
  const sign = rule.direction === 'maximize' ? -1 : 1;
  const byPrimary = [...rows].sort((a, b) => sign * (value(a).metric - value(b).metric) || tieBreak(a, b));
  const ranked: T[] = [];
  for (const row of byPrimary) {
    const at = ranked.findIndex((placed) => beats(rule, value(row), value(placed)));
    if (at === -1) ranked.push(row);
    else ranked.splice(at, 0, row);
  }
  return ranked;
}

/** The rule in words, for a page heading: `heldout_ppl (minimize); within 0.02 nats the smaller compressed_bytes wins`. */
export function ruleText(rule: TaskRule): string {
  const primary = `${rule.metric} (${rule.direction})`;
  if (rule.secondary === null) return rule.resolution > 0 ? `${primary}, by at least ${formatMetric(rule.resolution)}${rule.resolutionMode === 'log' ? ' nats' : ''}` : primary;
  const band = `${formatMetric(rule.resolution)}${rule.resolutionMode === 'log' ? ' nats' : ''}`;
  const better = rule.secondary.direction === 'maximize' ? 'larger' : 'smaller';
  if (rule.rankingMode === 'pareto') return `${primary} and ${rule.secondary.name} (${rule.secondary.direction}), Pareto: no worse on either (within ${band}), better on one`;
  return `${primary}; within ${band} the ${better} ${rule.secondary.name} wins`;
}

/**
 * Why a change of best happened when it was not a plain primary improvement: the new best lies within
 * the band of the one it replaced and won on the secondary metric. Null for an ordinary change.
 */
export function bandReplacement(rule: TaskRule, change: BestResultChangeDto, history: readonly BestResultChangeDto[]): string | null {
  if (rule.secondary === null || change.previous_metric_value === null) return null;
  const primary = primaryGain(rule, change.metric_value, change.previous_metric_value);
  if (primary === null || (primary > 0 && primary >= rule.resolution)) return null;
  const previous = [...history].reverse().find((c) => c.submission_id === change.previous_submission_id && c.changed_at <= change.changed_at);
  const was = previous?.secondary_metric_value ?? null;
  const band = `${formatMetric(rule.resolution)}${rule.resolutionMode === 'log' ? ' nats' : ''}`;
  const secondary = `${rule.secondary.name} ${formatMetric(change.secondary_metric_value)}${was === null ? '' : ` instead of ${formatMetric(was)}`}`;
  return `within the ${band} band of the best it replaced (${rule.metric} ${formatMetric(change.previous_metric_value)}), with ${secondary}`;
}
