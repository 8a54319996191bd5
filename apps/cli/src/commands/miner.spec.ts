import { metricText } from './miner';

describe('metricText', () => {
  it('writes a metric with six significant digits, as the web UI does (rcs tasks printed 9.989105720417284)', () => {
    expect(metricText(9.989105720417284)).toBe('9.98911');
    expect(metricText(0.625)).toBe('0.625');
    expect(metricText(2305)).toBe('2305');
    expect(metricText(null)).toBe('-');
  });
});
