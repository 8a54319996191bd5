import { MetricDirection, ReleaseState } from '@rcs/contracts';
import { RELEASE_COST_BITS, decideRelease, defaultBudgetBits, onGrid, releaseCostBits, releaseThreshold } from './release-rule';

const MIN = { direction: MetricDirection.Minimize, step: 0.025, costBits: RELEASE_COST_BITS };
const MAX = { ...MIN, direction: MetricDirection.Maximize };

describe('release rule (DECISIONS §17)', () => {
  it('costs ⌈log2 k_max⌉ + ⌈log2 levels⌉ bits a release: 16 by default', () => {
    expect(RELEASE_COST_BITS).toBe(16);
    expect(releaseCostBits(1000, 50)).toBe(16);
    expect(releaseCostBits(4096, 8)).toBe(15);
  });

  it('derives a shard budget from n, step, σ and δ, floored at one release', () => {
    expect(defaultBudgetBits(null, 0.01, 0.5, 0.05)).toBe(16);
    expect(defaultBudgetBits(4000, 0.01, 0.5, 0.05)).toBe(16);
    // (100000·0.02²/(2·0.5²) − ln 40) / ln 2 = (80 − 3.689) / 0.6931 = 110.1
    expect(defaultBudgetBits(100_000, 0.02, 0.5, 0.05)).toBe(110);
  });

  it('releases the first result on the grid, and spends one release of bits', () => {
    const outcome = decideRelease(MIN, { releasedBest: null, spentBits: 0, budgetBits: 64 }, { raw: 0.4987 });
    expect(outcome).toEqual({ release: ReleaseState.Improved, released: 0.5, state: { releasedBest: 0.5, spentBits: 16, budgetBits: 64 } });
  });

  it('keeps R and says not_significant unless the result beats R by more than the step, in the metric direction', () => {
    const state = { releasedBest: 0.5, spentBits: 16, budgetBits: 64 };
    expect(decideRelease(MIN, state, { raw: 0.476 })).toEqual({ release: ReleaseState.NotSignificant, released: 0.5, state });
    expect(decideRelease(MIN, state, { raw: 0.474 })).toMatchObject({ release: ReleaseState.Improved, released: 0.475 });
    expect(decideRelease(MAX, state, { raw: 0.474 }).release).toBe(ReleaseState.NotSignificant);
    expect(decideRelease(MAX, state, { raw: 0.5262 })).toMatchObject({ release: ReleaseState.Improved, released: 0.525 });
  });

  it('holds a significant result for rotation when its release would overspend the shard', () => {
    const state = { releasedBest: 0.5, spentBits: 56, budgetBits: 64 };
    expect(decideRelease(MIN, state, { raw: 0.4 })).toEqual({ release: ReleaseState.HeldForRotation, released: 0.5, state });
  });

  it('uses the paired per-item spread s/√n as the threshold when it exceeds the step', () => {
    const noisy = Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? 1 : -1));
    expect(releaseThreshold(0.025, noisy)).toBeCloseTo(0.1005, 3);
    expect(releaseThreshold(0.025, null)).toBe(0.025);
    const state = { releasedBest: 0.5, spentBits: 0, budgetBits: 64 };
    expect(decideRelease(MIN, state, { raw: 0.45, pairedDifferences: noisy }).release).toBe(ReleaseState.NotSignificant);
    expect(decideRelease(MIN, state, { raw: 0.45 }).release).toBe(ReleaseState.Improved);
  });

  it('rounds onto the grid without binary noise, and leaves a zero step exact', () => {
    expect(onGrid(0.30000001, 0.1)).toBe(0.3);
    expect(onGrid(0.123456, 0)).toBe(0.123456);
  });
});
