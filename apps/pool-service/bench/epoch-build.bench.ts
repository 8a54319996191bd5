/**
 * The pool's own build of one payout epoch of `N` leaves (DECISIONS.md §8), for the payout verifier's
 * benchmark (tools/bench/verifier.ts): from a reward snapshot scoring N miners, the previous epoch's
 * cumulative amounts and the miners' recipients, `allocateEpoch` and `buildClaimEpoch` as the rollover
 * runs them (the database writes left out). Writes the epoch's inputs to `dir` as the pool and the
 * coordinator would serve them (each miner's recipient signed by its hotkey) and prints the best
 * build time of two (after a warm-up) as JSON. Usage: `epoch-build.bench.ts <dir> <N>`.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { stringToU8a, u8aToHex } from '@polkadot/util';
import { encodeAddress, sr25519PairFromSeed, sr25519Sign } from '@polkadot/util-crypto';
import type { RewardSnapshotDto } from '@rcs/contracts';
import { cryptoReady, keypairFromUri, recipientUpdateMessage } from '@rcs/auth';
import { buildClaimEpoch } from '@rcs/merkle';
import type { SplitCompetition } from '@rcs/merkle';
import { allocateEpoch } from '../src/epochs/epoch-math';
import { snapshotInputs } from '../src/epochs/snapshot-inputs';

const [dir, count] = [process.argv[2], Number(process.argv[3] ?? 100_000)];
const EPOCH = 2;
const BUDGET = 1_000_000_000_000n;
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** N miners, each with a real sr25519 key pair made from a seed, and its recipient record signed by it (setup, not timed). */
function miners(n: number, coldkey: string): { hotkey: string; record: object }[] {
  const timestamp = '1767225000';
  const message = stringToU8a(recipientUpdateMessage(timestamp, coldkey));
  return Array.from({ length: n }, (_, i) => {
    const seed = new Uint8Array(32);
    new DataView(seed.buffer).setUint32(0, i + 1);
    const pair = sr25519PairFromSeed(seed);
    const record = { recipient_coldkey: coldkey, signed_coldkey: coldkey, timestamp, signature: u8aToHex(sr25519Sign(message, pair)), route: 'bench', kind: 'recipient', recorded_at: '2025-12-31T00:00:00.000Z' };
    return { hotkey: encodeAddress(pair.publicKey, 42), record };
  });
}

async function main(): Promise<void> {
  await cryptoReady();
  const cold = (await keypairFromUri('//Bench//cold')).address;
  const signed = miners(count, cold);
  const hotkeys = signed.map((m) => m.hotkey);
  const at = '2026-01-01T00:00:00.000Z';
  const snapshot = JSON.stringify({
    generated_at: at,
    score_ema_days: 10,
    competition_count: 2,
    reward_policy: { version: 2, pools: [], local_competition: { enabled: false } },
    competitions: ['alpha', 'beta'].map((slug, c) => ({
      competition_id: `task-${slug}`,
      slug,
      title: slug,
      competition_mode: 'standard',
      weight: c + 1,
      target_pool_id: 'main',
      reward_scope: c === 0 ? 'competition_only' : 'shared_pool',
      miners: hotkeys.filter((_, i) => i % (c + 1) === 0).map((hotkey, i) => ({ miner_hotkey: hotkey, score: 1 + ((i * 7919) % 1000) / 10 })),
    })),
  });
  const inputs = snapshotInputs(JSON.parse(snapshot) as RewardSnapshotDto);
  const previousCumulative = new Map(hotkeys.filter((_, i) => i % 3 === 0).map((hotkey, i) => [hotkey, BigInt(1_000 + i)]));
  const recipients = new Map(hotkeys.map((hotkey) => [hotkey, cold]));
  const local: SplitCompetition = { competitionId: 'local', slug: 'local', weight: 0, poolId: 'main', scope: 'competition_only', miners: [] };

  const build = () => {
    const allocation = allocateEpoch({
      epoch: EPOCH,
      budget: BUDGET,
      carriedIn: 0n,
      snapshot: { sha256: sha256(snapshot), generatedAt: at, policyVersion: 2, stale: false },
      competitions: [...inputs.competitions, local],
      pools: inputs.pools,
      previousCumulative,
      recipients,
      recipientsAt: at,
    });
    const tree = buildClaimEpoch(EPOCH, allocation.leaves);
    return { document: JSON.stringify(allocation.document), tree };
  };
  let built = build();
  const times: number[] = [];
  for (let round = 0; round < 2; round += 1) {
    const start = performance.now();
    built = build();
    times.push(performance.now() - start);
  }
  writeFileSync(join(dir, 'allocation.json'), built.document);
  writeFileSync(join(dir, 'snapshot.json'), snapshot);
  writeFileSync(join(dir, 'previous.json'), JSON.stringify({ epoch: 1, carried_over: '0', cumulative: Object.fromEntries([...previousCumulative].map(([h, a]) => [h, a.toString()])) }));
  writeFileSync(join(dir, 'recipients.json'), JSON.stringify(Object.fromEntries(signed.map((m) => [m.hotkey, [m.record]]))));
  writeFileSync(join(dir, 'contract.json'), JSON.stringify({ epoch: EPOCH, root: built.tree.root, num_of_leaves: built.tree.entries.length, total_rao: built.tree.totalAmount.toString() }));
  process.stdout.write(`${JSON.stringify({ build_ms: Math.min(...times), leaves: built.tree.entries.length })}\n`);
}

void main();
