import type { BestResultChangeDto, TaskDto } from '@rcs/contracts';
import { MetricDirection, MetricResolutionMode, primaryGain, rankAgainst, RankingMode, replacesIncumbent, type RankedValue, type RankingRule } from '@rcs/contracts/ranking';
import { formatMetric } from './format';

/**
 * How a task decides its best (DECISIONS.md §3): the coordinator's own rule (`@rcs/contracts/ranking`), a
 * result beats another by at least `resolution` on the primary metric (natural logs in `log` mode, the
 * "nats" band), or lies within that band and is strictly better on the secondary metric. Pareto: at
 * least as good on both (primary with the band) and strictly better on one. With the metrics' names,
 * for the page.
 */
export interface TaskRule extends RankingRule {
  metric: string;
  /** Null when the task has no secondary metric (then `secondaryDirection` is null too). */
  secondary: { name: string; direction: MetricDirection } | null;
}

export type RuleValue = RankedValue;

export function taskRule(task: Pick<TaskDto, 'metric_name' | 'metric_direction' | 'metric_resolution' | 'metric_resolution_mode' | 'ranking_mode' | 'secondary_metric_name' | 'secondary_metric_direction'>): TaskRule {
  const secondary = task.secondary_metric_name && task.secondary_metric_direction ? { name: task.secondary_metric_name, direction: task.secondary_metric_direction } : null;
  return {
    metric: task.metric_name,
    direction: task.metric_direction,
    resolution: task.metric_resolution ?? 0,
    resolutionMode: task.metric_resolution_mode ?? MetricResolutionMode.Absolute,
    rankingMode: task.ranking_mode ?? RankingMode.Scalar,
    secondary,
    secondaryDirection: secondary?.direction ?? null,
  };
}

/** Whether `candidate` would replace `incumbent` as the task's best. */
export function beats(rule: TaskRule, candidate: RuleValue, incumbent: RuleValue): boolean {
  return replacesIncumbent(rankAgainst(candidate, incumbent, rule));
}

/**
 * Rows best first by the task's rule: by the primary metric, then each row moved ahead of the first
 * row it beats (so a slightly worse but smaller model inside the band ranks above the one it replaced).
 * `tieBreak` orders rows with equal values (the earlier decision first).
 */
export function rankByRule<T>(rows: readonly T[], rule: TaskRule, value: (row: T) => RuleValue, tieBreak: (a: T, b: T) => number = () => 0): T[] {
  const sign = rule.direction === MetricDirection.Maximize ? -1 : 1;
  const byPrimary = [...rows].sort((a, b) => sign * (value(a).metric - value(b).metric) || tieBreak(a, b));
  const ranked: T[] = [];
  for (const row of byPrimary) {
    const at = ranked.findIndex((placed) => beats(rule, value(row), value(placed)));
    if (at === -1) ranked.push(row);
    else ranked.splice(at, 0, row);
  }
  return ranked;
}

/** The band's width: `0.02 nats` in log mode. */
function bandText(rule: TaskRule): string {
  return `${formatMetric(rule.resolution)}${rule.resolutionMode === MetricResolutionMode.Log ? ' nats' : ''}`;
}

/** The rule in words, for a page heading: `heldout_ppl (minimize); within 0.02 nats the smaller compressed_bytes wins`. */
export function ruleText(rule: TaskRule): string {
  const primary = `${rule.metric} (${rule.direction})`;
  if (rule.secondary === null) return rule.resolution > 0 ? `${primary}, by at least ${bandText(rule)}` : primary;
  const band = bandText(rule);
  const better = rule.secondary.direction === MetricDirection.Maximize ? 'larger' : 'smaller';
  if (rule.rankingMode === RankingMode.Pareto) return `${primary} and ${rule.secondary.name} (${rule.secondary.direction}), Pareto: no worse on either (within ${band}), better on one`;
  return `${primary}; within ${band} the ${better} ${rule.secondary.name} wins`;
}

/**
 * Why a change of best happened when it was not a plain primary improvement: the new best lies within
 * the band of the one it replaced and won on the secondary metric. Null for an ordinary change.
 */
export function bandReplacement(rule: TaskRule, change: BestResultChangeDto, history: readonly BestResultChangeDto[]): string | null {
  if (rule.secondary === null || change.previous_metric_value === null) return null;
  const primary = primaryGain(change.metric_value, change.previous_metric_value, rule);
  if (primary === null || (primary > 0 && primary >= rule.resolution)) return null;
  const previous = [...history].reverse().find((c) => c.submission_id === change.previous_submission_id && c.changed_at <= change.changed_at);
  const was = previous?.secondary_metric_value ?? null;
  const band = bandText(rule);
  const secondary = `${rule.secondary.name} ${formatMetric(change.secondary_metric_value)}${was === null ? '' : ` instead of ${formatMetric(was)}`}`;
  return `within the ${band} band of the best it replaced (${rule.metric} ${formatMetric(change.previous_metric_value)}), with ${secondary}`;
}
