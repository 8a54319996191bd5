import { encodeAddress } from '@polkadot/util-crypto';
import { TransitionPolicyStatus, ValidatorWeightsMode, type RewardSnapshotDto, type ValidatorWeightsPolicyDto } from '@rcs/contracts';
import { computeWeightVector, WeightVectorError } from './weight-vector';

const h = (n: number, prefix = 42): string => encodeAddress(new Uint8Array(32).fill(n + 1), prefix);
/** uid i holds h(i); h(9) holds no uid. */
const METAGRAPH = [0, 1, 2, 3, 4].map((i) => h(i));

function snapshot(weights: Partial<ValidatorWeightsPolicyDto>, competitions: { weight: number; miners: [number, number][] }[] = []): RewardSnapshotDto {
  return {
    generated_at: '2026-11-23T12:00:00.000Z',
    score_ema_days: 10,
    competition_count: competitions.length,
    reward_policy: { validator_weights: { mode: ValidatorWeightsMode.Local, targets: [], version_key: 1337, ...weights } },
    competitions: competitions.map((c, i) => ({ competition_id: `t${i}`, slug: `s${i}`, weight: c.weight, miners: c.miners.map(([n, score]) => ({ miner_hotkey: h(n), score })) })),
  } as unknown as RewardSnapshotDto;
}

const target = (t: { uid?: number; hotkey?: string; weight: number }) => ({ uid: t.uid ?? null, hotkey: t.hotkey ?? null, weight: t.weight });

describe('computeWeightVector', () => {
  it('local: scores normalised per competition, times its weight, summed per uid; hotkeys without uid and zero-weight competitions dropped', () => {
    // A (0.75): h1 3, h2 1, h9 4 (no uid) → total 8: uid1 0.28125, uid2 0.09375
    // B (0.25): h2 2, h3 2 → uid2 +0.125, uid3 0.125;  C (0): h4 ignored
    // raw 0.28125 / 0.21875 / 0.125 (Σ 0.625) → fractions 0.45 / 0.35 / 0.2; u16 65535, 65535·7/9 = 50971.67 → 50972, 65535·4/9 = 29126.67 → 29127
    const vector = computeWeightVector(
      snapshot({}, [
        { weight: 0.75, miners: [[9, 4], [1, 3], [2, 1]] },
        { weight: 0.25, miners: [[2, 2], [3, 2]] },
        { weight: 0, miners: [[4, 5]] },
      ]),
      METAGRAPH,
    );
    expect(vector.mode).toBe('local');
    expect(vector.versionKey).toBe(1337);
    expect(vector.entries.map((e) => [e.uid, e.hotkey, e.value])).toEqual([
      [1, h(1), 65_535],
      [2, h(2), 50_972],
      [3, h(3), 29_127],
    ]);
    expect(vector.entries.map((e) => e.weight)).toEqual([expect.closeTo(0.45, 12), expect.closeTo(0.35, 12), expect.closeTo(0.2, 12)]);
  });

  it('local: a miner written with another SS58 prefix is the same hotkey; nothing left goes to uid 0', () => {
    const other = snapshot({}, [{ weight: 1, miners: [[2, 1]] }]);
    other.competitions[0].miners[0].miner_hotkey = h(2, 0);
    expect(computeWeightVector(other, METAGRAPH).entries).toEqual([{ uid: 2, hotkey: h(2), weight: 1, value: 65_535 }]);
    expect(computeWeightVector(snapshot({}, [{ weight: 1, miners: [[9, 5]] }]), METAGRAPH).entries).toEqual([{ uid: 0, hotkey: h(0), weight: 1, value: 65_535 }]);
    expect(computeWeightVector(snapshot({}, []), METAGRAPH).entries).toEqual([{ uid: 0, hotkey: h(0), weight: 1, value: 65_535 }]);
  });

  it('burn_uid0: everything on uid 0, with the policy version key', () => {
    const vector = computeWeightVector(snapshot({ mode: ValidatorWeightsMode.BurnUid0, version_key: 42 }, [{ weight: 1, miners: [[1, 1]] }]), METAGRAPH);
    expect(vector).toEqual({ mode: 'burn_uid0', versionKey: 42, entries: [{ uid: 0, hotkey: h(0), weight: 1, value: 65_535 }] });
  });

  it('targets: by uid or hotkey, summed per uid, uids ascending; a value that rounds to 0 is dropped', () => {
    // uid2 = 3 (hotkey) + 1 (uid) = 4, uid4 = 1 → 0.8 / 0.2 → 65535 / 16383.75 → 16384
    const vector = computeWeightVector(snapshot({ mode: ValidatorWeightsMode.Targets, targets: [target({ uid: 4, weight: 1 }), target({ hotkey: h(2, 0), weight: 3 }), target({ uid: 2, weight: 1 })] }), METAGRAPH);
    expect(vector.entries).toEqual([
      { uid: 2, hotkey: h(2), weight: 0.8, value: 65_535 },
      { uid: 4, hotkey: h(4), weight: 0.2, value: 16_384 },
    ]);
    // 65535 / 10^6 rounds to 0: the chain would store nothing for uid 3, so it is not sent.
    const tiny = computeWeightVector(snapshot({ mode: ValidatorWeightsMode.Targets, targets: [target({ uid: 1, weight: 1_000_000 }), target({ uid: 3, weight: 1 })] }), METAGRAPH);
    expect(tiny.entries).toEqual([{ uid: 1, hotkey: h(1), weight: 1, value: 65_535 }]);
  });

  it('targets: an unknown hotkey or uid fails the pass, naming it', () => {
    const unknownHotkey = () => computeWeightVector(snapshot({ mode: ValidatorWeightsMode.Targets, targets: [target({ uid: 1, weight: 1 }), target({ hotkey: h(9), weight: 1 })] }), METAGRAPH);
    expect(unknownHotkey).toThrow(WeightVectorError);
    expect(unknownHotkey).toThrow(`target hotkey ${h(9)} holds no uid on the subnet`);
    expect(() => computeWeightVector(snapshot({ mode: ValidatorWeightsMode.Targets, targets: [target({ uid: 5, weight: 1 })] }), METAGRAPH)).toThrow(/target uid 5 does not exist/);
  });

  it('an active transition_policy accepts exactly its split and refuses any other vector', () => {
    const transition = { status: TransitionPolicyStatus.Active, required_contract_hotkey: h(3), required_contract_weight: 0.6, remaining_weight: 0.4 };
    const conforming = computeWeightVector(
      snapshot({ mode: ValidatorWeightsMode.Targets, transition_policy: transition, targets: [target({ hotkey: h(3), weight: 3 }), target({ uid: 0, weight: 2 })] }),
      METAGRAPH,
    );
    // 2/3 · 65535 = 43690
    expect(conforming.entries).toEqual([
      { uid: 0, hotkey: h(0), weight: 0.4, value: 43_690 },
      { uid: 3, hotkey: h(3), weight: 0.6, value: 65_535 },
    ]);
    const local = snapshot({ transition_policy: transition }, [{ weight: 1, miners: [[1, 1]] }]);
    expect(() => computeWeightVector(local, METAGRAPH)).toThrow(expect.objectContaining({ code: 'transition_policy_violated' }));
    expect(() => computeWeightVector(snapshot({ transition_policy: { ...transition, required_contract_hotkey: h(9) } }), METAGRAPH)).toThrow(
      expect.objectContaining({ code: 'transition_contract_unregistered' }),
    );
    // inactive: not enforced
    expect(computeWeightVector(snapshot({ transition_policy: { ...transition, status: TransitionPolicyStatus.Inactive } }, [{ weight: 1, miners: [[1, 1]] }]), METAGRAPH).entries).toEqual([
      { uid: 1, hotkey: h(1), weight: 1, value: 65_535 },
    ]);
  });
});
