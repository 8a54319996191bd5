/**
 * The verifier's judgement of the epoch the pool's build wrote to `dir` (apps/pool-service/bench/
 * epoch-build.bench.ts), for tools/bench/verifier.ts: the allocation's hash and shape, the split
 * recomputed from the snapshot, the cumulative amounts, every leaf's recipient against the signed
 * record (an sr25519 check each, spread over one worker thread per core) and the root, exactly as a
 * pass runs them once its inputs are read (the HTTP reads left out). Prints the first judgement (every signature checked) and the best of two
 * more (signatures already judged, as for each later epoch whose records did not change) as JSON. Usage: `verify.bench.ts <dir>`.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { cryptoReady } from '@rcs/auth';
import { readRewardSnapshot } from '@rcs/client';
import type { RecipientRecord } from '../src/verify/recipient-rule';
import { readAllocation, stageJudgement, type Mismatch, type Verified } from '../src/verify/recompute';
import { prejudgeRecords } from '../src/verify/signature-pool';

const dir = process.argv[2];
const read = (name: string) => readFileSync(join(dir, name));

async function main(): Promise<void> {
  await cryptoReady();
  const allocation = new Uint8Array(read('allocation.json'));
  const snapshotBytes = new Uint8Array(read('snapshot.json'));
  const contract = JSON.parse(read('contract.json').toString()) as { epoch: number; root: string; num_of_leaves: number; total_rao: string };
  const previousDoc = JSON.parse(read('previous.json').toString()) as { epoch: number; carried_over: string; cumulative: Record<string, string> };
  const recipients = new Map(Object.entries(JSON.parse(read('recipients.json').toString()) as Record<string, RecipientRecord[]>));
  const uri = `http://pool/claims/epoch/${contract.epoch}/allocation?sha256=${createHash('sha256').update(allocation).digest('hex')}`;
  const previous = { epoch: previousDoc.epoch, carriedOver: BigInt(previousDoc.carried_over), cumulative: new Map(Object.entries(previousDoc.cumulative).map(([h, a]) => [h, BigInt(a)])) };

  // As a pass: the signatures not judged yet are checked on worker threads (one per core) while this
  // thread runs every other check; the recipient check then reads their verdicts.
  const verify = async (): Promise<Verified | Mismatch> => {
    const document = readAllocation(contract.epoch, uri, allocation);
    if ('result' in document) return document;
    const signatures = prejudgeRecords(recipients);
    const staged = stageJudgement({
      epoch: contract.epoch,
      document,
      snapshot: readRewardSnapshot(snapshotBytes),
      previous,
      recipients,
      contract: { root: contract.root, numOfLeaves: contract.num_of_leaves, totalRao: BigInt(contract.total_rao) },
    });
    await signatures;
    return staged.finish();
  };
  // The first judgement checks every recipient signature; a later epoch checks only records it has not seen.
  let start = performance.now();
  let outcome = await verify();
  const cold = performance.now() - start;
  const times: number[] = [];
  for (let round = 0; round < 2; round += 1) {
    start = performance.now();
    outcome = await verify();
    times.push(performance.now() - start);
  }
  process.stdout.write(`${JSON.stringify({ verify_cold_ms: cold, verify_ms: Math.min(...times), result: outcome.result, check: 'check' in outcome ? outcome.check : null })}\n`);
}

void main();
