import { canonicalSs58 } from '@rcs/auth';
import { TransitionPolicyStatus, ValidatorWeightsMode, type RewardSnapshotDto } from '@rcs/contracts';

export const U16_MAX = 65_535;
/** How far a fraction may stray from what an active transition policy requires. */
export const TRANSITION_TOLERANCE = 1e-9;

/** One weight of the vector: the fraction of the whole (Σ = 1) and the u16 the chain stores. */
export interface WeightEntry {
  uid: number;
  /** The uid's hotkey in the metagraph (SS58, prefix 42); null when the metagraph has no such uid. */
  hotkey: string | null;
  weight: number;
  value: number;
}

export interface WeightVector {
  mode: ValidatorWeightsMode;
  /** uids ascending, no zeros. */
  entries: WeightEntry[];
  versionKey: number;
}

export type WeightVectorErrorCode = 'unknown_target_uid' | 'unknown_target_hotkey' | 'transition_contract_unregistered' | 'transition_policy_violated';

/** The policy cannot be turned into a vector on this metagraph; the pass fails with this code and message. */
export class WeightVectorError extends Error {
  constructor(
    readonly code: WeightVectorErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'WeightVectorError';
  }
}

/**
 * `reward_policy.validator_weights` of the snapshot as a weight vector over the metagraph
 * (`hotkeys[uid]`), DECISIONS §12: `local` from the scores, `burn_uid0` all on uid 0, `targets` as
 * listed; then an active `transition_policy` is enforced, and the result max-normalised to u16. `canonical` spells a
 * miner's hotkey canonically (a caller that already decoded every key passes what it found).
 */
export function computeWeightVector(snapshot: RewardSnapshotDto, hotkeys: readonly string[], canonical: (ss58: string) => string | null = canonicalSs58): WeightVector {
  const policy = snapshot.reward_policy.validator_weights;
  const uidOf = uidIndex(hotkeys);
  let raw: Map<number, number>;
  switch (policy.mode) {
    case ValidatorWeightsMode.Local:
      raw = localWeights(snapshot, uidOf, canonical);
      break;
    case ValidatorWeightsMode.BurnUid0:
      raw = new Map([[0, 1]]);
      break;
    case ValidatorWeightsMode.Targets:
      raw = targetWeights(policy.targets, hotkeys.length, uidOf);
      break;
  }
  const entries = normalise(raw, hotkeys);
  const transition = policy.transition_policy;
  if (transition && transition.status === TransitionPolicyStatus.Active) {
    const contractUid = uidOf.get(canonicalSs58(transition.required_contract_hotkey) ?? '');
    if (contractUid === undefined) {
      throw new WeightVectorError('transition_contract_unregistered', `transition_policy: the contract hotkey ${transition.required_contract_hotkey} holds no uid on the subnet`);
    }
    const share = (uid: number) => entries.find((e) => e.uid === uid)?.weight ?? 0;
    const contract = share(contractUid);
    const burn = share(0);
    if (Math.abs(contract - transition.required_contract_weight) > TRANSITION_TOLERANCE || Math.abs(burn - transition.remaining_weight) > TRANSITION_TOLERANCE) {
      throw new WeightVectorError(
        'transition_policy_violated',
        `transition_policy requires ${transition.required_contract_weight} on the contract hotkey (uid ${contractUid}) and ${transition.remaining_weight} on uid 0; ` +
          `the ${policy.mode} vector gives ${contract} and ${burn}: refused, not set`,
      );
    }
  }
  return { mode: policy.mode, entries, versionKey: policy.version_key };
}

/** Canonical hotkey → uid; the first uid wins should a hotkey appear twice. */
function uidIndex(hotkeys: readonly string[]): Map<string, number> {
  const index = new Map<string, number>();
  hotkeys.forEach((hotkey, uid) => {
    const canonical = canonicalSs58(hotkey);
    if (canonical !== null && !index.has(canonical)) index.set(canonical, uid);
  });
  return index;
}

/** Each competition's scores normalised within it, times its weight, summed per uid; nothing left → uid 0. */
function localWeights(snapshot: RewardSnapshotDto, uidOf: Map<string, number>, canonical: (ss58: string) => string | null): Map<number, number> {
  const raw = new Map<number, number>();
  for (const competition of snapshot.competitions) {
    const total = competition.miners.reduce((sum, miner) => sum + miner.score, 0);
    if (!(competition.weight > 0) || !(total > 0)) continue;
    for (const miner of competition.miners) {
      const uid = uidOf.get(canonical(miner.miner_hotkey) ?? '');
      if (uid === undefined) continue; // hotkeys without a uid are dropped
      raw.set(uid, (raw.get(uid) ?? 0) + (miner.score / total) * competition.weight);
    }
  }
  return [...raw.values()].some((w) => w > 0) ? raw : new Map([[0, 1]]);
}

function targetWeights(targets: RewardSnapshotDto['reward_policy']['validator_weights']['targets'], size: number, uidOf: Map<string, number>): Map<number, number> {
  const raw = new Map<number, number>();
  for (const target of targets) {
    let uid: number;
    if (target.uid !== null && target.uid !== undefined) {
      if (target.uid >= size) throw new WeightVectorError('unknown_target_uid', `target uid ${target.uid} does not exist on the subnet (${size} uids)`);
      uid = target.uid;
    } else {
      const found = uidOf.get(canonicalSs58(target.hotkey ?? '') ?? '');
      if (found === undefined) throw new WeightVectorError('unknown_target_hotkey', `target hotkey ${target.hotkey} holds no uid on the subnet`);
      uid = found;
    }
    raw.set(uid, (raw.get(uid) ?? 0) + target.weight);
  }
  return raw;
}

/** uids ascending, fractions of the whole, u16 by max-normalisation (largest → 65535); zeros dropped. */
function normalise(raw: Map<number, number>, hotkeys: readonly string[]): WeightEntry[] {
  const positive = [...raw.entries()].filter(([, w]) => w > 0).sort(([a], [b]) => a - b);
  const max = Math.max(0, ...positive.map(([, w]) => w));
  const quantised = positive.map(([uid, w]) => ({ uid, raw: w, value: Math.round((w / max) * U16_MAX) })).filter((e) => e.value > 0);
  const total = quantised.reduce((sum, e) => sum + e.raw, 0);
  return quantised.map((e) => ({ uid: e.uid, hotkey: canonicalSs58(hotkeys[e.uid] ?? ''), weight: e.raw / total, value: e.value }));
}
