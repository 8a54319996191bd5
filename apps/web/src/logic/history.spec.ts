import type { BestResultChangeDto } from '@rcs/contracts';
import { historySeries } from './history';

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
