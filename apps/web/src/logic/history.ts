import type { BestResultChangeDto } from '@rcs/contracts';

/** The best-result history as chart columns: x in Unix seconds, y the metric; changes sorted by time. */
export function historySeries(changes: readonly BestResultChangeDto[]): [number[], number[]] {
  const sorted = [...changes].sort((a, b) => Date.parse(a.changed_at) - Date.parse(b.changed_at));
  return [sorted.map((c) => Date.parse(c.changed_at) / 1000), sorted.map((c) => c.metric_value)];
}

/** Tick steps of the time axis in seconds: whole seconds at least, so points a few ms apart never get millisecond ticks. */
export const TIME_STEPS = [1, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800, 2592000, 31536000];

/** The x range shown: at least a minute around the points, so a burst of changes does not stretch milliseconds across the chart. */
export function timeRange(min: number, max: number): [number, number] {
  const MIN_SPAN = 60;
  if (max - min >= MIN_SPAN) return [min, max];
  const middle = (min + max) / 2;
  return [middle - MIN_SPAN / 2, middle + MIN_SPAN / 2];
}

/** A tick label in UTC, as precise as the visible span needs: `19:21:05`, `19:21`, `11-26 19:00`, `2026-11-26`. */
export function timeTick(seconds: number, spanSeconds: number): string {
  const iso = new Date(seconds * 1000).toISOString();
  if (spanSeconds < 600) return iso.slice(11, 19);
  if (spanSeconds < 2 * 86400) return iso.slice(11, 16);
  if (spanSeconds < 14 * 86400) return `${iso.slice(5, 10)} ${iso.slice(11, 16)}`;
  return iso.slice(0, 10);
}
