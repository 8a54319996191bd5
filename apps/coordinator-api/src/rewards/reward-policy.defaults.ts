import {
  CompetitionPolicyDto,
  PoolPolicyDto,
  UpdateRewardPolicyDto,
  TransitionPolicyDto,
  ValidatorWeightsMode,
  ValidatorWeightTargetDto,
} from '@rcs/contracts';
import { storedHotkey } from '../common/hotkeys';
import { pick } from '../common/pick';

/** A DTO's fields as a plain object type: documents are plain data, never DTO instances. */
type Fields<T> = { [K in keyof T]: T[K] };

export type PoolPolicy = Fields<PoolPolicyDto>;
export type CompetitionPolicy = Fields<CompetitionPolicyDto>;
export type ValidatorWeightTarget = Fields<ValidatorWeightTargetDto>;

export type TransitionPolicy = Fields<TransitionPolicyDto>;

export interface ValidatorWeightsPolicy {
  mode: ValidatorWeightsMode;
  targets: ValidatorWeightTarget[];
  version_key: number;
  transition_policy?: TransitionPolicy | null;
}

/**
 * The policy document of the spec without `updated_at`, every default filled in: what
 * `reward_policy` of the snapshot holds and what `reward_policies.document` stores.
 */
export type RewardPolicyBody = {
  version: number;
  pools: PoolPolicy[];
  validator_weights: ValidatorWeightsPolicy;
  local_competition: CompetitionPolicy;
  competition_defaults: CompetitionPolicy;
  /** Keyed by task slug or task id; each entry is complete (omitted fields took the spec defaults, not `competition_defaults`). */
  competition_overrides: Record<string, CompetitionPolicy>;
};

/** The policy in force: the stored body of the newest version and when that version was stored. */
export type RewardPolicyDocument = RewardPolicyBody & { updatedAt: Date };

/** The version the history starts at: the defaults, stored the first time the policy is read or replaced. */
export const INITIAL_POLICY_VERSION = 1;

const COMPETITION_POLICY_KEYS = [
  ...['enabled', 'weight', 'target_pool_id', 'reward_scope', 'scoring_mode', 'accepted_reward_metric_tolerance'] as const,
  ...['accepted_reward_floor_mode', 'accepted_reward_floor_value', 'accepted_reward_floor_stddevs', 'accepted_reward_floor_min_samples'] as const,
];
const POOL_POLICY_KEYS = ['pool_id', 'label', 'enabled', 'contract_hotkey_mode', 'contract_hotkey', 'contract_address'] as const;

function competitionPolicy(source: CompetitionPolicy): CompetitionPolicy {
  return pick(source, COMPETITION_POLICY_KEYS);
}

function poolPolicy(source: PoolPolicy): PoolPolicy {
  // contract_hotkey keeps its place in the key order.
  return { ...pick(source, POOL_POLICY_KEYS), contract_hotkey: source.contract_hotkey === null ? null : storedHotkey(source.contract_hotkey) };
}

function validatorWeightsPolicy(source: ValidatorWeightsPolicy): ValidatorWeightsPolicy {
  return {
    mode: source.mode,
    targets: source.targets.map((target) => ({
      uid: target.uid,
      hotkey: target.hotkey === null ? null : storedHotkey(target.hotkey),
      weight: target.weight,
    })),
    version_key: source.version_key,
    // Only written when set, so documents without one keep their exact bytes.
    ...(source.transition_policy
      ? {
          transition_policy: {
            status: source.transition_policy.status,
            required_contract_hotkey: source.transition_policy.required_contract_hotkey,
            required_contract_weight: source.transition_policy.required_contract_weight,
            remaining_weight: source.transition_policy.remaining_weight,
          },
        }
      : {}),
  };
}

/**
 * A fresh plain copy of the policy fields, keys in the spec's order and overrides sorted by key, so
 * the same policy always serialises to the same JSON (snapshot determinism). Hotkeys that are SS58
 * addresses take their canonical spelling (DECISIONS.md §2 Identity). Drops `updatedAt` and
 * anything else that is not a policy field, so `rewardPolicyBody(document)` is the snapshot's `reward_policy`.
 */
export function rewardPolicyBody(source: RewardPolicyBody): RewardPolicyBody {
  return {
    version: source.version,
    pools: source.pools.map(poolPolicy),
    validator_weights: validatorWeightsPolicy(source.validator_weights),
    local_competition: competitionPolicy(source.local_competition),
    competition_defaults: competitionPolicy(source.competition_defaults),
    competition_overrides: Object.fromEntries(
      Object.keys(source.competition_overrides)
        .sort()
        .map((key) => [key, competitionPolicy(source.competition_overrides[key])]),
    ),
  };
}

/** The spec's defaults (the DTO initialisers are the one place they are written) at version 1. */
export function defaultRewardPolicy(): RewardPolicyBody {
  return rewardPolicyBody(new UpdateRewardPolicyDto());
}
