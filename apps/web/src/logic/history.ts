import type { BestResultChangeDto } from '@rcs/contracts';

/** The best-result history as chart columns: x in Unix seconds, y the metric; changes sorted by time. */
export function historySeries(changes: readonly BestResultChangeDto[]): [number[], number[]] {
  const sorted = [...changes].sort((a, b) => Date.parse(a.changed_at) - Date.parse(b.changed_at));
  return [sorted.map((c) => Date.parse(c.changed_at) / 1000), sorted.map((c) => c.metric_value)];
}
