import type { RewardSnapshotDto, WeightSetterStatusDto } from '@rcs/contracts';
import { scoredWithoutWeight, snapshotShares, weightOf } from './shares';

const competition = (id: string, weight: number, miners: [string, number][]) =>
  ({ competition_id: id, slug: id, title: id.toUpperCase(), weight, miners: miners.map(([miner_hotkey, score]) => ({ miner_hotkey, score })) }) as RewardSnapshotDto['competitions'][number];

describe('snapshotShares', () => {
  it('splits each competition by score and weighs competitions with scores by their policy weight', () => {
    const snapshot = { competitions: [competition('a', 3, [['m1', 3], ['m2', 1]]), competition('b', 1, [['m2', 2]]), competition('empty', 5, [])] } as unknown as RewardSnapshotDto;
    const shares = snapshotShares(snapshot);
    expect(shares.map((s) => [s.hotkey, s.overall])).toEqual([
      ['m1', 0.5625],
      ['m2', 0.4375],
    ]);
    expect(shares[1].competitions.map((c) => [c.slug, c.share])).toEqual([
      ['a', 0.25],
      ['b', 1],
    ]);
    expect(shares.reduce((sum, s) => sum + s.overall, 0)).toBeCloseTo(1, 12);
  });
});

describe('weightOf', () => {
  it('finds the hotkey in the last pass, null without a pass or a weight', () => {
    const status = { last_pass: { weights: [{ uid: 3, hotkey: 'm1', weight: 0.75, value: 65535 }] } } as unknown as WeightSetterStatusDto;
    expect(weightOf(status, 'm1')).toEqual({ weight: 0.75, uid: 3 });
    expect(weightOf(status, 'm2')).toBeNull();
    expect(weightOf({ last_pass: null } as unknown as WeightSetterStatusDto, 'm1')).toBeNull();
    expect(weightOf(null, 'm1')).toBeNull();
  });
});

describe('scoredWithoutWeight', () => {
  it('names the scored miners a local pass could not weigh (no uid), and nobody for other modes', () => {
    const shares = snapshotShares({ competitions: [competition('a', 1, [['m1', 3], ['m2', 1]])] } as unknown as RewardSnapshotDto);
    const pass = (mode: string, weights: { uid: number; hotkey: string | null; weight: number }[]) => ({ last_pass: { mode, weights } }) as unknown as WeightSetterStatusDto;
    // The demo's miners hold no uid on the dev chain: everything went to uid 0 and the page said nothing.
    expect(scoredWithoutWeight(shares, pass('local', [{ uid: 0, hotkey: 'validator', weight: 1 }])).map((m) => m.hotkey)).toEqual(['m1', 'm2']);
    expect(scoredWithoutWeight(shares, pass('local', [{ uid: 3, hotkey: 'm1', weight: 1 }])).map((m) => m.hotkey)).toEqual(['m2']);
    expect(scoredWithoutWeight(shares, pass('burn_uid0', [{ uid: 0, hotkey: 'validator', weight: 1 }]))).toEqual([]);
    expect(scoredWithoutWeight(shares, null)).toEqual([]);
  });
});
