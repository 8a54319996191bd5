import { canonicalSs58 } from '@rcs/auth';
import { ContractHotkeyMode, RewardScope, type RewardSnapshotDto } from '@rcs/contracts';
import type { RewardScopeName, SplitCompetition, SplitMiner, SplitPoolPolicy } from '@rcs/merkle';
import { SnapshotRefusedError } from './errors';

/** What an epoch takes from a checked reward snapshot (DECISIONS.md §7 shape). */
export interface SnapshotInputs {
  generatedAt: string;
  policyVersion: number;
  competitions: SplitCompetition[];
  pools: SplitPoolPolicy[];
  /** `reward_policy.local_competition`: the pool's own competition (§11). */
  local: { enabled: boolean; weight: number; poolId: string; scope: RewardScopeName };
}

const scopeOf = (scope: RewardScope | undefined): RewardScopeName => (scope === RewardScope.SharedPool ? 'shared_pool' : 'competition_only');

/**
 * The epoch's inputs from a snapshot `@rcs/client` has checked: hotkeys become canonical SS58. Every
 * entry is kept or the snapshot refused (a dropped miner would be an unpaid one, silently): a hotkey
 * that is not SS58, or a competition without the pool it pays into.
 */
export function snapshotInputs(snapshot: RewardSnapshotDto): SnapshotInputs {
  const problems: string[] = [];
  const competitions = snapshot.competitions.map((competition, i): SplitCompetition => {
    if (typeof competition.target_pool_id !== 'string') problems.push(`competitions[${i}].target_pool_id must be a string`);
    const miners = competition.miners.map((miner, j): SplitMiner => {
      const hotkey = canonicalSs58(miner.miner_hotkey);
      if (hotkey === null) problems.push(`competitions[${i}].miners[${j}].miner_hotkey is not an SS58 address`);
      return { hotkey: hotkey ?? miner.miner_hotkey, score: miner.score };
    });
    return {
      competitionId: competition.competition_id,
      slug: competition.slug,
      weight: competition.weight,
      poolId: competition.target_pool_id,
      scope: scopeOf(competition.reward_scope),
      miners,
    };
  });
  if (problems.length > 0) throw new SnapshotRefusedError(problems);
  const policy = snapshot.reward_policy;
  const local = policy.local_competition;
  return {
    generatedAt: snapshot.generated_at,
    policyVersion: policy.version,
    competitions,
    pools: policy.pools.map((pool) => ({ poolId: pool.pool_id, enabled: pool.enabled, dedicatedContract: pool.contract_hotkey_mode === ContractHotkeyMode.DedicatedContract })),
    local: { enabled: local.enabled, weight: local.weight, poolId: local.target_pool_id, scope: scopeOf(local.reward_scope) },
  };
}
