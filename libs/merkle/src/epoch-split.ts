/**
 * The pure arithmetic of a payout epoch (DECISIONS.md §8): the budget split over pools, competitions
 * and miners by the largest-remainder method in exact integer arithmetic, and cumulative amounts per
 * hotkey. No I/O: the pool's rollover and the payout verifier's recomputation both feed it their inputs.
 */

export type RewardScopeName = 'competition_only' | 'shared_pool';

export interface SplitMiner {
  /** Canonical SS58 (prefix 42). */
  hotkey: string;
  /** > 0; anything else scores nothing. */
  score: number;
}

export interface SplitCompetition {
  competitionId: string;
  slug: string;
  /** Share weight in its pool; 0 (a disabled competition) receives nothing. */
  weight: number;
  poolId: string;
  scope: RewardScopeName;
  miners: SplitMiner[];
}

export interface SplitPoolPolicy {
  poolId: string;
  enabled: boolean;
  /** `dedicated_contract` pools are paid by their own contract, not from this budget. */
  dedicatedContract: boolean;
}

export interface CompetitionUnits {
  competitionId: string;
  slug: string;
  score: number;
  units: bigint;
}

export interface EpochSplit {
  /** Units per hotkey (only hotkeys that received something), summing with `carried` to the total. */
  units: Map<string, bigint>;
  /** Per hotkey, per competition (sorted by slug, then id): the receipts. */
  competitions: Map<string, CompetitionUnits[]>;
  /** Shares of pools with no scored miner, carried to the next epoch. */
  carried: bigint;
}

/** A finite non-negative double as the exact dyadic rational mantissa · 2^exponent. */
function dyadic(x: number): { mantissa: bigint; exponent: number } {
  if (!Number.isFinite(x) || x <= 0) return { mantissa: 0n, exponent: 0 };
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  return biased === 0 ? { mantissa: fraction, exponent: -1074 } : { mantissa: fraction | (1n << 52n), exponent: biased - 1075 };
}

/** Non-negative doubles as integers with one common denominator (exact: no rounding anywhere). */
function exactIntegers(values: readonly number[]): bigint[] {
  const parts = values.map(dyadic);
  const nonZero = parts.filter((p) => p.mantissa > 0n);
  if (nonZero.length === 0) return values.map(() => 0n);
  const minExponent = Math.min(...nonZero.map((p) => p.exponent));
  return parts.map((p) => (p.mantissa === 0n ? 0n : p.mantissa << BigInt(p.exponent - minExponent)));
}

/**
 * Splits `total` integer units over `items` in proportion to their weights (largest remainder:
 * floors first, then one unit each to the largest remainders, ties by key ascending). Weights ≤ 0
 * or not finite receive nothing; with no positive weight nothing is split (every item 0).
 */
export function largestRemainder(total: bigint, items: readonly { key: string; weight: number }[]): Map<string, bigint> {
  if (total < 0n) throw new RangeError('total must be non-negative');
  const weights = exactIntegers(items.map((item) => item.weight));
  const sum = weights.reduce((a, b) => a + b, 0n);
  const out = new Map<string, bigint>();
  if (sum === 0n) {
    for (const item of items) out.set(item.key, 0n);
    return out;
  }
  const rows = items.map((item, i) => ({ key: item.key, floor: (total * weights[i]) / sum, remainder: (total * weights[i]) % sum }));
  let left = total - rows.reduce((a, row) => a + row.floor, 0n);
  const byRemainder = [...rows].sort((a, b) => (a.remainder !== b.remainder ? (a.remainder > b.remainder ? -1 : 1) : a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (const row of byRemainder) {
    if (left === 0n) break;
    row.floor += 1n;
    left -= 1n;
  }
  for (const row of rows) out.set(row.key, (out.get(row.key) ?? 0n) + row.floor);
  return out;
}

function scored(competition: SplitCompetition): SplitMiner[] {
  return competition.miners.filter((m) => Number.isFinite(m.score) && m.score > 0);
}

function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Splits `total` units (DECISIONS.md §8): over the competitions of the payable pools by weight
 * (a pool's share = Σ weights of its competitions / Σ all); inside a pool, a competition with no
 * scored miner gives its share to the others; `competition_only` shares go to that competition's
 * miners by score share; the `shared_pool` competitions of a pool pool their shares and their
 * miners' scores. A pool with no scored miner at all is carried to the next epoch. A pool missing
 * from `pools` is payable; a disabled or dedicated-contract one is not.
 */
export function splitEpoch(total: bigint, competitions: readonly SplitCompetition[], pools: readonly SplitPoolPolicy[]): EpochSplit {
  const policy = new Map(pools.map((p) => [p.poolId, p]));
  const payable = competitions.filter((c) => {
    const pool = policy.get(c.poolId);
    return Number.isFinite(c.weight) && c.weight > 0 && (pool === undefined || (pool.enabled && !pool.dedicatedContract));
  });
  const poolIds = [...new Set(payable.map((c) => c.poolId))].sort(byText);
  const poolWeight = (poolId: string) => payable.filter((c) => c.poolId === poolId).reduce((a, c) => a + c.weight, 0);
  const poolUnits = largestRemainder(
    total,
    poolIds.map((poolId) => ({ key: poolId, weight: poolWeight(poolId) })),
  );

  const units = new Map<string, bigint>();
  const receipts = new Map<string, CompetitionUnits[]>();
  const credit = (hotkey: string, receipt: CompetitionUnits) => {
    units.set(hotkey, (units.get(hotkey) ?? 0n) + receipt.units);
    const list = receipts.get(hotkey) ?? [];
    list.push(receipt);
    receipts.set(hotkey, list);
  };
  let carried = payable.length === 0 ? total : 0n;

  for (const poolId of poolIds) {
    const share = poolUnits.get(poolId) ?? 0n;
    const withMiners = payable.filter((c) => c.poolId === poolId && scored(c).length > 0).sort((a, b) => byText(a.competitionId, b.competitionId));
    if (withMiners.length === 0) {
      carried += share;
      continue;
    }
    const own = withMiners.filter((c) => c.scope === 'competition_only');
    const shared = withMiners.filter((c) => c.scope === 'shared_pool');
    const SHARED_KEY = '\u0000shared';
    const pieces = [
      ...own.map((c) => ({ key: c.competitionId, weight: c.weight })),
      ...(shared.length > 0 ? [{ key: SHARED_KEY, weight: shared.reduce((a, c) => a + c.weight, 0) }] : []),
    ];
    const pieceUnits = largestRemainder(share, pieces);

    for (const competition of own) {
      const miners = scored(competition);
      const split = largestRemainder(pieceUnits.get(competition.competitionId) ?? 0n, miners.map((m) => ({ key: m.hotkey, weight: m.score })));
      for (const miner of miners) {
        credit(miner.hotkey, { competitionId: competition.competitionId, slug: competition.slug, score: miner.score, units: split.get(miner.hotkey) ?? 0n });
      }
    }
    if (shared.length > 0) {
      // One pot, one score per hotkey (Σ of its scores over the shared competitions).
      const perHotkey = new Map<string, { competition: SplitCompetition; score: number }[]>();
      for (const competition of shared) {
        for (const miner of scored(competition)) {
          const list = perHotkey.get(miner.hotkey) ?? [];
          list.push({ competition, score: miner.score });
          perHotkey.set(miner.hotkey, list);
        }
      }
      const hotkeys = [...perHotkey.keys()].sort(byText);
      const split = largestRemainder(
        pieceUnits.get(SHARED_KEY) ?? 0n,
        hotkeys.map((hotkey) => ({ key: hotkey, weight: (perHotkey.get(hotkey) ?? []).reduce((a, s) => a + s.score, 0) })),
      );
      for (const hotkey of hotkeys) {
        // The receipt attributes the hotkey's pooled units to its competitions by its scores.
        const parts = perHotkey.get(hotkey) ?? [];
        const attributed = largestRemainder(split.get(hotkey) ?? 0n, parts.map((p) => ({ key: p.competition.competitionId, weight: p.score })));
        for (const part of parts) {
          credit(hotkey, { competitionId: part.competition.competitionId, slug: part.competition.slug, score: part.score, units: attributed.get(part.competition.competitionId) ?? 0n });
        }
      }
    }
  }
  for (const list of receipts.values()) list.sort((a, b) => byText(a.slug, b.slug) || byText(a.competitionId, b.competitionId));
  return { units, competitions: receipts, carried };
}

/** Cumulative units per hotkey after this epoch: every earlier hotkey stays, this epoch's units are added. */
export function cumulate(previous: ReadonlyMap<string, bigint>, units: ReadonlyMap<string, bigint>): Map<string, bigint> {
  const next = new Map(previous);
  for (const [hotkey, amount] of units) next.set(hotkey, (next.get(hotkey) ?? 0n) + amount);
  return next;
}
