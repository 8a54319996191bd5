import type { BestResultChangeDto } from '@rcs/contracts';
import { historySeries, timeRange, timeTick, TIME_STEPS } from './history';

describe('historySeries', () => {
  it('orders the changes by time and gives x in seconds and y the metric value', () => {
    const change = (at: string, value: number) => ({ changed_at: at, metric_value: value }) as BestResultChangeDto;
    expect(historySeries([change('2026-01-01T00:00:10Z', 0.2), change('2026-01-01T00:00:00Z', 0.5)])).toEqual([
      [Date.parse('2026-01-01T00:00:00Z') / 1000, Date.parse('2026-01-01T00:00:10Z') / 1000],
      [0.5, 0.2],
    ]);
    expect(historySeries([])).toEqual([[], []]);
  });
});

describe('the time axis', () => {
  it('widens a span of a few milliseconds to a minute and keeps a longer one', () => {
    expect(timeRange(1000, 1000.004)).toEqual([1000.002 - 30, 1000.002 + 30]);
    expect(timeRange(0, 3600)).toEqual([0, 3600]);
  });
  it('labels ticks in UTC to the precision the span needs, never below a second', () => {
    const at = Date.parse('2026-11-26T19:21:05.123Z') / 1000;
    expect([timeTick(at, 60), timeTick(at, 3600), timeTick(at, 5 * 86400), timeTick(at, 60 * 86400)]).toEqual(['19:21:05', '19:21', '11-26 19:21', '2026-11-26']);
    expect(Math.min(...TIME_STEPS)).toBe(1);
  });
});
