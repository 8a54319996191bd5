import { ConfigError } from '@rcs/http';
import { loadCoordinatorConfig } from './config';

const BASE = { CHAIN: 'dev', NETUID: '1' };

describe('loadCoordinatorConfig: SCORE_EMA_DAYS', () => {
  it('defaults to 10 days', () => {
    expect(loadCoordinatorConfig(BASE).scoreEmaDays).toBe(10);
  });

  it.each([
    ['0.5', 0.5],
    ['30', 30],
    [' 7 ', 7],
  ])('reads %p as %p', (raw, days) => {
    expect(loadCoordinatorConfig({ ...BASE, SCORE_EMA_DAYS: raw }).scoreEmaDays).toBe(days);
  });

  it.each(['0', '-1', 'ten', 'Infinity', 'NaN'])('refuses %p', (raw) => {
    expect(() => loadCoordinatorConfig({ ...BASE, SCORE_EMA_DAYS: raw })).toThrow(ConfigError);
    expect(() => loadCoordinatorConfig({ ...BASE, SCORE_EMA_DAYS: raw })).toThrow(/SCORE_EMA_DAYS must be a number above 0/);
  });
});
