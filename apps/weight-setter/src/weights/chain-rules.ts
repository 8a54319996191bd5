import type { WeightsRules } from '@rcs/chain';
import { U16_MAX, type WeightVector } from './weight-vector';

/** The rule of the chain a vector breaks (DECISIONS §12 "Chain rules first"); the code starts the pass's reason. */
export interface ChainRuleViolation {
  code: 'version_key_too_low' | 'no_validator_permit' | 'too_few_weights' | 'weight_above_limit' | 'unknown_uid' | 'duplicate_uid';
  message: string;
}

/**
 * What `set_weights` (and, at reveal, the commit's reveal) checks, checked before anything is sent:
 * a vector the chain would refuse — or under commit-reveal silently drop — fails the pass naming its rule.
 * Mirrors subtensor: a self-weight alone is exempt from the permit and the length rule, and the
 * length rule asks for min(MinAllowedWeights, SubnetworkN) entries.
 */
export function chainRuleViolation(vector: WeightVector, rules: WeightsRules, ownUid: number): ChainRuleViolation | null {
  const uids = vector.entries.map((e) => e.uid);
  const values = vector.entries.map((e) => e.value);
  if (BigInt(vector.versionKey) < rules.weightsVersionKey) {
    return { code: 'version_key_too_low', message: `the policy's version_key ${vector.versionKey} is below the subnet's WeightsVersionKey ${rules.weightsVersionKey}` };
  }
  if (new Set(uids).size !== uids.length) return { code: 'duplicate_uid', message: `the vector names a uid twice (${uids.join(', ')})` };
  const unknown = uids.filter((uid) => uid >= rules.subnetSize);
  if (unknown.length > 0) return { code: 'unknown_uid', message: `uid ${unknown.join(', ')} does not exist on the subnet (${rules.subnetSize} uids)` };
  const selfWeight = uids.length === 1 && uids[0] === ownUid;
  if (!selfWeight && rules.validatorPermit[ownUid] !== true) {
    return { code: 'no_validator_permit', message: `uid ${ownUid} holds no ValidatorPermit on the subnet, so the chain refuses its weights on other uids` };
  }
  const least = Math.min(rules.minAllowedWeights, rules.subnetSize);
  if (!selfWeight && uids.length < least) {
    return { code: 'too_few_weights', message: `the vector has ${uids.length} non-zero weights; the subnet asks for at least ${least} (MinAllowedWeights ${rules.minAllowedWeights}, ${rules.subnetSize} uids)` };
  }
  if (!selfWeight && rules.maxWeightsLimit < U16_MAX) {
    // Subtensor normalises the values to sum to 1, then compares the largest with MaxWeightsLimit / 65535.
    const total = values.reduce((sum, v) => sum + v, 0);
    const over = vector.entries.filter((e) => e.value / total > rules.maxWeightsLimit / U16_MAX);
    if (over.length > 0) {
      return {
        code: 'weight_above_limit',
        message: `uid ${over.map((e) => e.uid).join(', ')} would hold more than MaxWeightsLimit ${rules.maxWeightsLimit}/65535 of the vector`,
      };
    }
  }
  return null;
}
