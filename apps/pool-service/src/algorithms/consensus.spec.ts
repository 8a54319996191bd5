import { decideConsensus, median, withinTolerance } from './consensus';

const RULES = { k: 3, toleranceRatio: 0.1, toleranceAbs: 1e-6, maxEvaluations: 7 };
const evals = (...scores: number[]) => scores.map((score, i) => ({ id: String(i + 1), score }));

describe('consensus (DECISIONS.md §11)', () => {
  it('scores at the median of k agreeing evaluations and leaves the outlier out', () => {
    const outcome = decideConsensus(evals(0.8, 0.82, 0.4, 0.79), RULES);
    expect(outcome).toEqual({ kind: 'scored', score: 0.8, inConsensus: new Set(['1', '2', '4']) });
  });

  it('stays pending below k agreeing evaluations, and rejects at the maximum without agreement', () => {
    expect(decideConsensus(evals(0.8, 0.81), RULES)).toEqual({ kind: 'pending' });
    expect(decideConsensus(evals(0.1, 0.3, 0.5, 0.7, 0.9, 1.2, 1.6), RULES)).toEqual({ kind: 'rejected' });
    expect(decideConsensus(evals(0.1, 0.3, 0.5, 0.7, 0.9, 1.2), RULES)).toEqual({ kind: 'pending' });
  });

  it('uses the absolute tolerance near zero', () => {
    expect(withinTolerance(5e-7, 0, RULES)).toBe(true);
    expect(withinTolerance(2e-6, 0, RULES)).toBe(false);
    expect(decideConsensus(evals(0, 1e-7, -1e-7), RULES)).toMatchObject({ kind: 'scored', score: 0 });
  });

  it('prefers the largest agreeing group and takes the mean of the middle two for an even one', () => {
    const outcome = decideConsensus(evals(1.0, 1.02, 1.04, 1.06, 3.0, 3.01, 3.02), RULES);
    expect(outcome).toMatchObject({ kind: 'scored', inConsensus: new Set(['1', '2', '3', '4']) });
    expect(outcome.kind === 'scored' && outcome.score).toBeCloseTo(1.03, 12);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('keeps the median of two finite values finite near the float maximum (a + (b − a)/2, never (a + b)/2)', () => {
    expect(median([1e308, 1e308])).toBe(1e308);
    expect(median([1, 1e308, 1e308, 1e308])).toBe(1e308);
    expect(median([Number.MAX_VALUE, Number.MAX_VALUE * 0.5])).toBe(Number.MAX_VALUE * 0.75);
    const outcome = decideConsensus(evals(1, 1e308, 1e308, 1e308), RULES);
    expect(outcome).toEqual({ kind: 'scored', score: 1e308, inConsensus: new Set(['2', '3', '4']) });
  });
});
