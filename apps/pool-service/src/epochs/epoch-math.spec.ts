import { largestRemainder, splitEpoch, type SplitCompetition } from '@rcs/merkle';
import { allocateEpoch } from './epoch-math';

function competition(id: string, poolId: string, weight: number, scope: SplitCompetition['scope'], miners: [string, number][]): SplitCompetition {
  return { competitionId: id, slug: id.toLowerCase(), weight, poolId, scope, miners: miners.map(([hotkey, score]) => ({ hotkey, score })) };
}

const sum = (values: Iterable<bigint>) => [...values].reduce((a, b) => a + b, 0n);

describe('largestRemainder', () => {
  it('gives the leftover unit to the largest remainder, ties by key', () => {
    expect(Object.fromEntries(largestRemainder(10n, [{ key: 'b', weight: 1 }, { key: 'a', weight: 1 }, { key: 'c', weight: 1 }]))).toEqual({ a: 4n, b: 3n, c: 3n });
    expect(Object.fromEntries(largestRemainder(7n, [{ key: 'x', weight: 2 }, { key: 'y', weight: 5 }]))).toEqual({ x: 2n, y: 5n });
  });

  it('is exact on the doubles themselves (0.1, 0.2, 0.7 of 100 is 10, 20, 70)', () => {
    expect(Object.fromEntries(largestRemainder(100n, [{ key: 'a', weight: 0.1 }, { key: 'b', weight: 0.2 }, { key: 'c', weight: 0.7 }]))).toEqual({ a: 10n, b: 20n, c: 70n });
  });

  it('gives nothing to zero, negative or non-finite weights and splits nothing without a positive weight', () => {
    expect(Object.fromEntries(largestRemainder(5n, [{ key: 'a', weight: 0 }, { key: 'b', weight: -1 }, { key: 'c', weight: Number.NaN }, { key: 'd', weight: 1e-300 }]))).toEqual({ a: 0n, b: 0n, c: 0n, d: 5n });
    expect(Object.fromEntries(largestRemainder(5n, [{ key: 'a', weight: 0 }]))).toEqual({ a: 0n });
  });

  it('always sums to the total', () => {
    const items = Array.from({ length: 37 }, (_, i) => ({ key: `k${i}`, weight: Math.sqrt(i + 1) / 7 }));
    for (const total of [0n, 1n, 36n, 1_000_000_000n, 18_446_744_073_709_551_615n]) expect(sum(largestRemainder(total, items).values())).toBe(total);
  });
});

describe('splitEpoch', () => {
  it('splits by pools, weights, competition_only and shared_pool (hand-computed)', () => {
    // Pools: main = A(3) + B(1) = 4, other = C(1) + D(1) = 2 → 1000·4/6 = 666.67, 333.33 → main 667, other 333.
    // main: A 667·3/4 = 500.25 → 500, B 166.75 → 167; A: x 125, y 375; B: z 167.
    // other (shared): x scores 1 + 1 = 2, w 1 → x 222, w 111; x's 222 attributed 111/111 to C and D.
    const split = splitEpoch(
      1000n,
      [
        competition('A', 'main', 3, 'competition_only', [['h_x', 1], ['h_y', 3]]),
        competition('B', 'main', 1, 'competition_only', [['h_z', 5]]),
        competition('C', 'other', 1, 'shared_pool', [['h_x', 1]]),
        competition('D', 'other', 1, 'shared_pool', [['h_w', 1], ['h_x', 1]]),
      ],
      [],
    );
    expect(Object.fromEntries(split.units)).toEqual({ h_x: 347n, h_y: 375n, h_z: 167n, h_w: 111n });
    expect(split.carried).toBe(0n);
    expect(split.competitions.get('h_x')).toEqual([
      { competitionId: 'A', slug: 'a', score: 1, units: 125n },
      { competitionId: 'C', slug: 'c', score: 1, units: 111n },
      { competitionId: 'D', slug: 'd', score: 1, units: 111n },
    ]);
  });

  it('returns the share of a competition with no scored miner to its pool, and carries a pool with none', () => {
    const split = splitEpoch(
      100n,
      [
        competition('A', 'main', 1, 'competition_only', [['h_x', 2]]),
        competition('B', 'main', 1, 'competition_only', [['h_y', 0]]),
        competition('C', 'other', 2, 'competition_only', []),
      ],
      [],
    );
    // main 100·2/4 = 50, all of it to A (B has no positive score); other's 50 is carried.
    expect(Object.fromEntries(split.units)).toEqual({ h_x: 50n });
    expect(split.carried).toBe(50n);
  });

  it('pays nothing to disabled pools, dedicated-contract pools or weight 0; with nothing payable all is carried', () => {
    const competitions = [
      competition('A', 'off', 1, 'competition_only', [['h_x', 1]]),
      competition('B', 'own', 1, 'competition_only', [['h_y', 1]]),
      competition('C', 'main', 0, 'competition_only', [['h_z', 1]]),
    ];
    const pools = [
      { poolId: 'off', enabled: false, dedicatedContract: false },
      { poolId: 'own', enabled: true, dedicatedContract: true },
    ];
    const none = splitEpoch(9n, competitions, pools);
    expect(none.units.size).toBe(0);
    expect(none.carried).toBe(9n);
    const some = splitEpoch(9n, [...competitions, competition('D', 'main', 1, 'competition_only', [['h_w', 1]])], pools);
    expect(Object.fromEntries(some.units)).toEqual({ h_w: 9n });
  });

  it('breaks ties between equal scores by hotkey', () => {
    const split = splitEpoch(10n, [competition('A', 'main', 1, 'competition_only', [['h_c', 1], ['h_a', 1], ['h_b', 1]])], []);
    expect(Object.fromEntries(split.units)).toEqual({ h_a: 4n, h_b: 3n, h_c: 3n });
  });
});

describe('allocateEpoch', () => {
  const comp = (miners: [string, number][]) => [competition('A', 'main', 1, 'competition_only', miners)];

  it('accumulates per hotkey across epochs; a hotkey without a recipient has no leaf but keeps accruing', () => {
    const first = allocateEpoch({
      epoch: 1,
      budget: 100n,
      carriedIn: 0n,
      snapshot: null,
      competitions: comp([['h_x', 3], ['h_y', 2]]),
      pools: [],
      previousCumulative: new Map(),
      recipients: new Map([['h_x', 'c_x']]),
      recipientsAt: '2026-01-01T00:00:00.000Z',
    });
    expect(first.rows).toEqual([
      { hotkey: 'h_x', units: 60n, cumulative: 60n, recipientColdkey: 'c_x' },
      { hotkey: 'h_y', units: 40n, cumulative: 40n, recipientColdkey: null },
    ]);
    expect(first.leaves).toEqual([{ hotkey: 'h_x', recipientColdkey: 'c_x', amount: 60n }]);

    const second = allocateEpoch({
      epoch: 2,
      budget: 100n,
      carriedIn: 0n,
      snapshot: null,
      competitions: comp([['h_y', 1]]),
      pools: [],
      previousCumulative: new Map(first.rows.map((r) => [r.hotkey, r.cumulative])),
      recipients: new Map([['h_x', 'c_x'], ['h_y', 'c_y']]),
      recipientsAt: '2026-01-01T00:00:00.000Z',
    });
    // h_x earned nothing but keeps its leaf at 60; h_y's first leaf carries everything it earned.
    expect(second.leaves).toEqual([
      { hotkey: 'h_x', recipientColdkey: 'c_x', amount: 60n },
      { hotkey: 'h_y', recipientColdkey: 'c_y', amount: 140n },
    ]);
    expect(second.document.entries.map((e) => [e.hotkey, e.units, e.cumulative])).toEqual([
      ['h_x', '0', '60'],
      ['h_y', '100', '140'],
    ]);
  });

  it('splits budget plus carried-in, and its units plus carried-over sum exactly to that', () => {
    const allocation = allocateEpoch({
      epoch: 5,
      budget: 1_000_000_000n,
      carriedIn: 7n,
      snapshot: { sha256: 'ab'.repeat(32), generatedAt: '2026-01-01T00:00:00.000Z', policyVersion: 3, stale: false },
      competitions: [...comp([['h_a', 1 / 3], ['h_b', 1 / 3], ['h_c', 1 / 3]]), competition('L', 'local', 1, 'competition_only', [])],
      pools: [],
      previousCumulative: new Map(),
      recipients: new Map(),
      recipientsAt: '2026-01-01T00:00:00.000Z',
    });
    const units = sum(allocation.document.entries.map((e) => BigInt(e.units)));
    expect(units + BigInt(allocation.document.carried_over)).toBe(1_000_000_007n);
    // 1_000_000_007 / 2 pools: a tie at .5, broken by pool id — 'local' (no miner, carried) 500000004, 'main' 500000003,
    // then 500000003 / 3 = 166666667.67 each: two leftover units to the first hotkeys.
    expect(allocation.document.carried_over).toBe('500000004');
    expect(allocation.document.entries.map((e) => e.units)).toEqual(['166666668', '166666668', '166666667']);
    expect(allocation.leaves).toEqual([]);
  });
});
