import { canonicalSs58 } from '@rcs/auth';
import { asRewardSnapshot, REWARD_SNAPSHOT_PATH, rewardSnapshotProblems } from '@rcs/client';
import type { RewardSnapshotDto, ValidatorWeightsMode } from '@rcs/contracts';
import { computeWeightVector, WeightVectorError, type WeightVector } from './weight-vector';

/** What a pass keeps of a snapshot once its vector is computed (its status shows these). */
export interface SnapshotSummary {
  generated_at: string;
  mode: ValidatorWeightsMode;
}

/**
 * The outcome of reading one snapshot against the metagraph: its vector, or why not — the snapshot breaks the
 * contract (`invalid`, as `InvalidResponseError` words it), or the policy or a duplicate hotkey refuses it (`refused`).
 */
export type SnapshotDigest =
  | { kind: 'vector'; summary: SnapshotSummary; vector: WeightVector }
  | { kind: 'invalid'; summary: null; message: string }
  | { kind: 'refused'; summary: SnapshotSummary; code: string; message: string };

/**
 * The bytes of `GET /api/v1/reward-snapshot` as a weight vector over `hotkeys` (uid = index), DECISIONS §12. The
 * whole snapshot is refused when one competition lists one key twice, under any SS58 spellings: summing them would
 * let a coordinator (or whoever stands in for it) weigh one miner more than its score says. Synchronous and
 * CPU-bound (a 200,000-entry snapshot decodes every key): the pass runs it on a worker thread (`snapshot-worker.ts`).
 */
export function digestSnapshot(bytes: Uint8Array, hotkeys: readonly string[]): SnapshotDigest {
  let document: unknown;
  try {
    document = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return invalid(['the body is not JSON']);
  }
  const problems = rewardSnapshotProblems(document);
  if (problems.length > 0) return invalid(problems);
  const snapshot = asRewardSnapshot(document);
  const summary: SnapshotSummary = { generated_at: snapshot.generated_at, mode: snapshot.reward_policy.validator_weights.mode };
  // Each key is decoded once (the costly part of a big snapshot): for the duplicate check, then for the vector.
  const decoded = new Map<string, string | null>();
  const canonical = (written: string): string | null => {
    let found = decoded.get(written);
    if (found === undefined) decoded.set(written, (found = canonicalSs58(written)));
    return found;
  };
  const duplicate = duplicateHotkey(snapshot, canonical);
  if (duplicate !== null) return { kind: 'refused', summary, code: 'duplicate_hotkey', message: duplicate };
  try {
    return { kind: 'vector', summary, vector: computeWeightVector(snapshot, hotkeys, canonical) };
  } catch (error) {
    if (error instanceof WeightVectorError) return { kind: 'refused', summary, code: error.code, message: error.message };
    throw error;
  }
}

/** The first key a competition lists twice (by its canonical spelling), described; null when none is. */
export function duplicateHotkey(snapshot: RewardSnapshotDto, canonicalOf: (ss58: string) => string | null = canonicalSs58): string | null {
  for (const competition of snapshot.competitions) {
    const seen = new Map<string, string>();
    for (const { miner_hotkey: written } of competition.miners) {
      const canonical = canonicalOf(written) ?? written;
      const first = seen.get(canonical);
      if (first !== undefined) {
        const spellings = first === written ? `twice as ${written}` : `as ${first} and as ${written}`;
        return `competition ${competition.slug} lists hotkey ${canonical} ${spellings}; the snapshot is refused whole, not summed`;
      }
      seen.set(canonical, written);
    }
  }
  return null;
}

function invalid(problems: string[]): SnapshotDigest {
  const shown = `${problems.slice(0, 5).join('; ')}${problems.length > 5 ? ` (+${problems.length - 5} more)` : ''}`;
  return { kind: 'invalid', summary: null, message: `${REWARD_SNAPSHOT_PATH} answered a document that breaks the contract: ${shown}` };
}
