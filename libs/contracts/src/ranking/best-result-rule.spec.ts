import { MetricDirection, MetricResolutionMode, RankingMode } from '../enums';
import { RankingRule, rankAgainst, replacesIncumbent } from './best-result-rule';

const scalar = (over: Partial<RankingRule> = {}): RankingRule => ({
  direction: MetricDirection.Maximize,
  resolution: 0,
  resolutionMode: MetricResolutionMode.Absolute,
  rankingMode: RankingMode.Scalar,
  secondaryDirection: null,
  ...over,
});
const v = (metric: number, secondary: number | null = null) => ({ metric, secondary });

describe('rankAgainst', () => {
  it('takes the first finite result and refuses non-finite ones', () => {
    expect(rankAgainst(v(1), null, scalar())).toBe('first_result');
    expect(rankAgainst(v(Number.NaN), null, scalar())).toBe('not_comparable');
    expect(rankAgainst(v(Number.POSITIVE_INFINITY), v(1), scalar())).toBe('not_comparable');
  });

  it.each([
    ['maximize, strictly higher', scalar(), v(2), v(1), 'beats_by_resolution'],
    ['maximize, equal', scalar(), v(1), v(1), 'not_better'],
    ['maximize, lower', scalar(), v(0.5), v(1), 'not_better'],
    ['minimize, lower', scalar({ direction: MetricDirection.Minimize }), v(0.5), v(1), 'beats_by_resolution'],
    ['minimize, higher', scalar({ direction: MetricDirection.Minimize }), v(2), v(1), 'not_better'],
  ])('%s', (_name, rule, candidate, incumbent, expected) => {
    expect(rankAgainst(candidate, incumbent, rule)).toBe(expected);
  });

  it('needs at least the absolute resolution', () => {
    const rule = scalar({ resolution: 0.1 });
    expect(rankAgainst(v(1.05), v(1), rule)).toBe('not_better');
    expect(rankAgainst(v(1.1), v(1), rule)).toBe('beats_by_resolution');
    expect(rankAgainst(v(1.2), v(1), rule)).toBe('beats_by_resolution');
  });

  it('measures the log band in nats (the 0.02-nat perplexity rule)', () => {
    const rule = scalar({ direction: MetricDirection.Minimize, resolution: 0.02, resolutionMode: MetricResolutionMode.Log });
    // ln(254) - ln(250) = 0.01587 < 0.02; ln(254) - ln(248) = 0.02391 >= 0.02
    expect(rankAgainst(v(250), v(254), rule)).toBe('not_better');
    expect(rankAgainst(v(248), v(254), rule)).toBe('beats_by_resolution');
    expect(rankAgainst(v(-1), v(254), rule)).toBe('not_comparable');
  });

  it('lets a strictly better secondary metric win inside the band, and only there', () => {
    const rule = scalar({
      direction: MetricDirection.Minimize,
      resolution: 0.02,
      resolutionMode: MetricResolutionMode.Log,
      secondaryDirection: MetricDirection.Minimize,
    });
    // Slightly worse perplexity (inside the band) but a smaller model: replaces the incumbent.
    expect(rankAgainst(v(255, 900), v(254, 1000), rule)).toBe('secondary_better_within_band');
    // Same perplexity, bigger model: stays.
    expect(rankAgainst(v(254, 1100), v(254, 1000), rule)).toBe('not_better');
    // Smaller model but perplexity outside the band on the worse side: stays.
    expect(rankAgainst(v(270, 100), v(254, 1000), rule)).toBe('not_better');
    // Without a secondary value there is nothing to break the tie.
    expect(rankAgainst(v(255, null), v(254, 1000), rule)).toBe('not_better');
  });

  it('pareto: at least as good on both and strictly better on one', () => {
    const rule = scalar({ rankingMode: RankingMode.Pareto, secondaryDirection: MetricDirection.Minimize, resolution: 0.1 });
    expect(rankAgainst(v(2, 10), v(1, 10), rule)).toBe('pareto_dominates');
    expect(rankAgainst(v(1, 9), v(1, 10), rule)).toBe('pareto_dominates');
    expect(rankAgainst(v(0.95, 9), v(1, 10), rule)).toBe('pareto_dominates');
    expect(rankAgainst(v(2, 11), v(1, 10), rule)).toBe('not_better');
    expect(rankAgainst(v(0.8, 5), v(1, 10), rule)).toBe('not_better');
    expect(rankAgainst(v(1, 10), v(1, 10), rule)).toBe('not_better');
    expect(rankAgainst(v(1.05, 10), v(1, 10), rule)).toBe('not_better');
  });

  it('pareto without secondary values falls back to the scalar rule', () => {
    const rule = scalar({ rankingMode: RankingMode.Pareto, secondaryDirection: MetricDirection.Minimize });
    expect(rankAgainst(v(2), v(1, 10), rule)).toBe('beats_by_resolution');
  });

  it('replacesIncumbent is true exactly for the winning outcomes', () => {
    expect(['first_result', 'beats_by_resolution', 'secondary_better_within_band', 'pareto_dominates'].every((o) =>
      replacesIncumbent(o as never),
    )).toBe(true);
    expect(replacesIncumbent('not_better')).toBe(false);
    expect(replacesIncumbent('not_comparable')).toBe(false);
  });
});
