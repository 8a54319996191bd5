import { canonicalSs58 } from '@rcs/auth';
import type { SplitCompetition, SplitMiner, SplitPoolPolicy } from './epoch-math';

/** What an epoch needs from a reward snapshot (DECISIONS.md §7 shape). */
export interface ParsedSnapshot {
  generatedAt: string;
  policyVersion: number;
  competitions: SplitCompetition[];
  pools: SplitPoolPolicy[];
  /** `reward_policy.local_competition`: the pool's own competition (§11). */
  local: { enabled: boolean; weight: number; poolId: string; scope: SplitCompetition['scope'] };
}

export class SnapshotFormatError extends Error {
  constructor(message: string) {
    super(`reward snapshot: ${message}`);
    this.name = 'SnapshotFormatError';
  }
}

function record(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new SnapshotFormatError(`${what} must be an object`);
  return value as Record<string, unknown>;
}

function text(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new SnapshotFormatError(`${what} must be a string`);
  return value;
}

function finite(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new SnapshotFormatError(`${what} must be a finite number`);
  return value;
}

function scope(value: unknown): SplitCompetition['scope'] {
  return value === 'shared_pool' ? 'shared_pool' : 'competition_only';
}

function list(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw new SnapshotFormatError(`${what} must be an array`);
  return value;
}

/** Reads the parts of a snapshot an epoch uses; hotkeys become canonical SS58, unreadable ones are dropped. */
export function parseRewardSnapshot(bytes: Uint8Array): ParsedSnapshot {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    throw new SnapshotFormatError('not JSON');
  }
  const root = record(json, 'the snapshot');
  const generatedAt = text(root['generated_at'], 'generated_at');
  if (Number.isNaN(Date.parse(generatedAt))) throw new SnapshotFormatError('generated_at must be a date-time');
  const policy = record(root['reward_policy'], 'reward_policy');
  const local = record(policy['local_competition'] ?? {}, 'reward_policy.local_competition');
  const pools = list(policy['pools'] ?? [], 'reward_policy.pools').map((raw, i) => {
    const pool = record(raw, `reward_policy.pools[${i}]`);
    return { poolId: text(pool['pool_id'], 'pool_id'), enabled: pool['enabled'] !== false, dedicatedContract: pool['contract_hotkey_mode'] === 'dedicated_contract' };
  });
  const competitions = list(root['competitions'], 'competitions').map((raw, i): SplitCompetition => {
    const c = record(raw, `competitions[${i}]`);
    const miners = list(c['miners'], `competitions[${i}].miners`).flatMap((rawMiner): SplitMiner[] => {
      const miner = record(rawMiner, 'miner');
      const hotkey = canonicalSs58(text(miner['miner_hotkey'], 'miner_hotkey'));
      return hotkey === null ? [] : [{ hotkey, score: finite(miner['score'], 'score') }];
    });
    return {
      competitionId: text(c['competition_id'], 'competition_id'),
      slug: text(c['slug'], 'slug'),
      weight: finite(c['weight'], 'weight'),
      poolId: text(c['target_pool_id'], 'target_pool_id'),
      scope: scope(c['reward_scope']),
      miners,
    };
  });
  return {
    generatedAt,
    policyVersion: typeof policy['version'] === 'number' ? policy['version'] : 1,
    competitions,
    pools,
    local: {
      enabled: local['enabled'] !== false,
      weight: typeof local['weight'] === 'number' && Number.isFinite(local['weight']) ? local['weight'] : 1,
      poolId: typeof local['target_pool_id'] === 'string' ? local['target_pool_id'] : 'main',
      scope: scope(local['reward_scope']),
    },
  };
}
