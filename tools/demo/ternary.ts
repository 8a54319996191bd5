/**
 * The demo's second round: the ternary pack of examples/competitions as a centerless, artifact-based task. The
 * task repository is the packs folder committed to a temporary git repository; the miners train once and pack
 * with python3, serve the packed artifacts over plain HTTP (a local stack accepts http:// artifact URIs on
 * private addresses), submit them, and the validator runner downloads each one, checks its hash and size, and
 * scores it with ternary/bench.py against held-out rows from the task's private HELDOUT_SEED. Every unexpected
 * answer is a RoundStepError.
 */
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BtAuthSigner } from '@rcs/auth';
import { ArtifactHost, makeTernaryRepository, packTernaryArtifacts, ternaryTaskBody, type TernaryPacking } from '@rcs/testing';
import { Json, RoundClient, RoundStepError, stringField } from '../round/round';
import { DemoOptions, waitForDecision } from './demo';

/** The seed of the held-out rows behind ternary/README.md's rule-scenario table, so the demo's numbers are the README's. */
const HELDOUT_SEED = 'test-heldout-seed-1';
/** The task's band: two heldout_ppl within 0.02 nats are a tie that compressed_bytes breaks. */
const BAND_NATS = 0.02;

/** A submission of the round: how it is packed, who submits it, and what the validator must decide. */
interface TernaryStep {
  packing: TernaryPacking;
  miner: 0 | 1;
  idea: string;
  /** The earlier step whose idea this one implements (the second miner must name one). */
  implements?: string;
  expect: 'best' | 'replaces' | 'ineligible';
}

const STEPS: TernaryStep[] = [
  { packing: { name: 'first', rescueFraction: '0.05', scaleGroup: '8' }, miner: 0, idea: 'ternary with 5 % rescue and a scale per 8 weights', expect: 'best' },
  { packing: { name: 'smaller', rescueFraction: '0.1', scaleGroup: '32' }, miner: 0, idea: 'twice the rescue, a quarter of the scales', expect: 'replaces' },
  { packing: { name: 'rescue12', rescueFraction: '0.12', scaleGroup: '128' }, miner: 1, idea: 'more rescue', implements: 'smaller', expect: 'ineligible' },
];

export interface TernaryOptions extends DemoOptions {
  /** The first `steps` submissions of the round (default all three: best, smaller replacing it, over the rescue cap). */
  steps?: number;
  /** The local address the artifacts are served on (default 127.0.0.1), e.g. a Docker network's gateway for a runner container. */
  artifactAddress?: string;
}

export interface TernaryDecision {
  name: string;
  submissionId: string;
  status: string;
  heldoutPpl: number | null;
  compressedBytes: number | null;
  notes: string | null;
}

export async function runTernaryRound(options: TernaryOptions): Promise<TernaryDecision[]> {
  const { log } = options;
  const api = new RoundClient(options.url, options.adminToken, options.miners[0]);
  const repo = mkdtempSync(join(options.repositoryParent ?? tmpdir(), 'rcs-demo-ternary-'));
  if (options.repositoryParent !== undefined) chmodSync(repo, 0o755);
  const minerDir = mkdtempSync(join(tmpdir(), 'rcs-demo-miner-'));
  const host = new ArtifactHost();
  try {
    const baseRef = makeTernaryRepository(repo);
    log(`ternary repository: ${repo} at ${baseRef} (examples/competitions: lib, ternary, tools)`);
    const steps = STEPS.slice(0, options.steps ?? STEPS.length);
    const packingStarted = Date.now();
    const artifacts = packTernaryArtifacts(repo, minerDir, steps.map((step) => step.packing));
    await host.start(options.artifactAddress);
    log(
      `ternary artifacts: train.py once, pack.py ${steps.length} way(s) in ${((Date.now() - packingStarted) / 1000).toFixed(1)} s ` +
        `(${steps.map(({ packing }) => `${packing.name}: rescue ${packing.rescueFraction}, scale group ${packing.scaleGroup}, ${artifacts.get(packing.name)?.length ?? 0} bytes`).join('; ')}), served at ${host.url}`,
    );

    const slug = `ternary-${randomBytes(4).toString('hex')}`;
    const task = await api.send('create ternary task', 'POST', '/api/v1/tasks', 201, {
      auth: 'admin',
      body: { ...ternaryTaskBody(), slug, repository: repo, base_ref: baseRef, time_budget_seconds: 300, validator_benchmark_env: { HELDOUT_SEED } },
    });
    const taskId = stringField('create ternary task', task, 'id');
    log(`ternary task: ${taskId} (${slug}, ${String(task.competition_mode)}, heldout_ppl minimize within ${BAND_NATS} nats, then compressed_bytes minimize)`);

    const decisions: TernaryDecision[] = [];
    for (const step of steps) {
      const miner = options.miners[step.miner];
      const bytes = artifacts.get(step.packing.name) as Buffer;
      const implemented = step.implements === undefined ? null : (decisions.find((d) => d.name === step.implements)?.submissionId ?? null);
      const submissionId = await submitArtifact(api, miner, taskId, baseRef, step, host.put(`${step.packing.name}-${randomBytes(3).toString('hex')}.npz`, bytes), bytes, implemented);
      const decided = await waitForDecision(api, miner, submissionId, options);
      const decision = await verificationOf(api, step.packing.name, submissionId, String(decided.status));
      decisions.push(decision);
      const best = await api.send('ternary best', 'GET', `/api/v1/tasks/${taskId}/best`, 200, { auth: 'none' });
      log(describe(step, decision, decisions, best, miner));
      expectStep(step, decision, decisions, best);
    }
    // Its repository goes with the round: closed, the task keeps its best and scores but no miner can claim it.
    await api.send('close ternary task', 'POST', `/api/v1/tasks/${taskId}/close`, 200, { auth: 'admin' });
    log(`ternary closed: task ${taskId} (its repository is removed; its best and scores stay)`);
    return decisions;
  } finally {
    await host.stop();
    rmSync(minerDir, { recursive: true, force: true });
    rmSync(repo, { recursive: true, force: true });
  }
}

async function submitArtifact(api: RoundClient, miner: BtAuthSigner, taskId: string, baseRef: string, step: TernaryStep, uri: string, bytes: Buffer, implemented: string | null): Promise<string> {
  const claim = await api.send('ternary claim', 'POST', `/api/v1/tasks/${taskId}/claim`, 201, {
    auth: 'signed',
    signer: miner,
    body: { claim_description: `Pack the model: ${step.idea}.` },
  });
  const submission = await api.send('ternary submit', 'POST', '/api/v1/submissions', 201, {
    auth: 'signed',
    signer: miner,
    body: {
      claim_id: stringField('ternary claim', claim, 'id'),
      base_ref: baseRef,
      patch: '',
      summary: `Packed model ${step.packing.name}: rescue ${step.packing.rescueFraction}, scale group ${step.packing.scaleGroup}.`,
      // Claimed far better than anything reachable: the validator's observed metrics decide.
      claimed_metrics: { heldout_ppl: 1.01, compressed_bytes: 1 },
      artifact_uri: uri,
      artifact_sha256: createHash('sha256').update(bytes).digest('hex'),
      artifact_size_bytes: bytes.length,
      proposed_idea: step.idea,
      implemented_submission_id: implemented,
    },
  });
  return stringField('ternary submit', submission, 'id');
}

async function verificationOf(api: RoundClient, name: string, submissionId: string, status: string): Promise<TernaryDecision> {
  const list = (await api.send('ternary verification', 'GET', `/api/v1/verifications?submission_id=${submissionId}`, 200, { auth: 'none' })) as unknown;
  const verification = Array.isArray(list) && list.length === 1 ? (list[0] as Json) : null;
  if (verification === null) throw new RoundStepError('ternary verification', 200, JSON.stringify(list), `expected one verification of ${submissionId}`);
  const observed = (verification.observed_metrics ?? {}) as Json;
  const numberOrNull = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
  return {
    name,
    submissionId,
    status,
    heldoutPpl: numberOrNull(observed.heldout_ppl),
    compressedBytes: numberOrNull(observed.compressed_bytes),
    notes: typeof verification.notes === 'string' ? verification.notes : null,
  };
}

function describe(step: TernaryStep, decision: TernaryDecision, decisions: TernaryDecision[], best: Json, miner: BtAuthSigner): string {
  const who = `${decision.submissionId} (${step.packing.name}) by ${miner.hotkey}`;
  if (decision.status !== 'accepted') return `ternary ${decision.status}: ${who}: ${decision.notes ?? 'no notes'}; the best stays ${String(best.submission_id)}`;
  const metrics = `observed heldout_ppl=${decision.heldoutPpl?.toFixed(3)} compressed_bytes=${decision.compressedBytes}`;
  const first = decisions[0] as TernaryDecision;
  const isBest = best.submission_id === decision.submissionId;
  if (decision === first) return `ternary accepted: ${who}, ${metrics} (claimed 1.01 and 1 are ignored)${isBest ? '; the best' : ''}`;
  const nats = Math.log(decision.heldoutPpl ?? NaN) - Math.log(first.heldoutPpl ?? NaN);
  const smaller = 1 - (decision.compressedBytes ?? NaN) / (first.compressedBytes ?? NaN);
  return (
    `ternary accepted: ${who}, ${metrics}: ${nats >= 0 ? '+' : ''}${nats.toFixed(3)} nats (band ${BAND_NATS}), ${(100 * smaller).toFixed(0)} % smaller` +
    (isBest ? ` → the best instead of ${first.submissionId}` : `; the best stays ${String(best.submission_id)}`)
  );
}

function expectStep(step: TernaryStep, decision: TernaryDecision, decisions: TernaryDecision[], best: Json): void {
  const fail = (reason: string) => new RoundStepError(`ternary ${step.packing.name}`, 0, JSON.stringify({ decision, best }), reason);
  if (step.expect === 'ineligible') {
    if (decision.status !== 'rejected' || !(decision.notes ?? '').includes('Ineligible:')) throw fail('expected a rejection whose notes carry the benchmark\'s "Ineligible:" sentence');
    if (best.submission_id === decision.submissionId) throw fail('a rejected submission took the best');
    return;
  }
  if (decision.status !== 'accepted') throw fail('expected accepted');
  if (decision.heldoutPpl === null || decision.compressedBytes === null) throw fail('expected a finite observed heldout_ppl and compressed_bytes');
  if (best.submission_id !== decision.submissionId) throw fail('expected it to be the best');
  if (step.expect === 'replaces') {
    const first = decisions[0] as TernaryDecision;
    const nats = Math.log(decision.heldoutPpl) - Math.log(first.heldoutPpl as number);
    if (!(nats > 0 && nats < BAND_NATS && decision.compressedBytes < (first.compressedBytes as number))) {
      throw fail(`expected a slightly worse (0 < ${nats.toFixed(4)} < ${BAND_NATS} nats) and smaller model than the first`);
    }
  }
}
