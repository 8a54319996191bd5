import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mnemonicGenerate } from '@polkadot/util-crypto';
import { BtAuthSigner, keypairFromUri } from '@rcs/auth';
import { ArtifactHost, makeTernaryRepository, packTernaryArtifacts, callService, RunningCoordinator, runValidatorRunner, startCoordinatorProcess, ternaryTaskBody } from '@rcs/testing';
import { submitPack } from './support/submit-pack';

/**
 * The ternary pack as a centerless task on the local stack: a real coordinator, artifacts served over loopback
 * HTTP, and `validator-runner once` replaying each submission in the bwrap sandbox with Debian's python3-numpy.
 * The 0.02-nat log band with compressed_bytes as the secondary metric decides the best.
 */
// The held-out seed of packs.spec.ts: the smaller model sits ~0.012 nats behind the first, well inside the band.
const SECRET = 'test-heldout-seed-1';
const ROUND_MS = 240_000;

type Json = Record<string, unknown>;

const call = callService;

describe('the ternary pack as a centerless task, replayed by the runner in the bwrap sandbox', () => {
  let root: string;
  let coordinator: RunningCoordinator;
  let host: ArtifactHost;
  let validatorUri: string;
  let alice: BtAuthSigner;
  let bob: BtAuthSigner;
  let baseRef: string;
  let taskId: string;
  const artifacts = new Map<string, Buffer>();
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'rcs-ternary-round-'));
    // The task repository: the packs folder as an operator commits it.
    const origin = join(root, 'origin');
    baseRef = makeTernaryRepository(origin);

    // The miners' side: one training run, packed five ways (the same numbers as packs.spec.ts).
    const packed = packTernaryArtifacts(origin, join(root, 'miner'), [
      { name: 'first', rescueFraction: '0.05', scaleGroup: '8' },
      { name: 'smaller', rescueFraction: '0.1', scaleGroup: '32' },
      { name: 'worse', rescueFraction: '0.03', scaleGroup: '64' },
      { name: 'rescue12', rescueFraction: '0.12', scaleGroup: '128' },
      { name: 'better', rescueFraction: '0.1', scaleGroup: '4' },
    ]);
    for (const [name, bytes] of packed) artifacts.set(name, bytes);

    validatorUri = mnemonicGenerate();
    const validator = new BtAuthSigner(await keypairFromUri(validatorUri));
    alice = new BtAuthSigner(await keypairFromUri(mnemonicGenerate()));
    bob = new BtAuthSigner(await keypairFromUri(mnemonicGenerate()));
    host = new ArtifactHost();
    await host.start();
    coordinator = await startCoordinatorProcess({ validatorHotkey: validator.hotkey, database: 'packs_round', env: { ALLOW_INSECURE_ARTIFACT_URIS: 'true' } });

    const body = ternaryTaskBody();
    const task = await call(coordinator.url, 'POST', '/api/v1/tasks', { admin: coordinator.adminToken }, {
      ...body,
      slug: `ternary-${randomBytes(4).toString('hex')}`,
      repository: `file://${origin}`,
      base_ref: baseRef,
      time_budget_seconds: 300,
      validator_benchmark_env: { HELDOUT_SEED: SECRET },
    });
    expect(task.status).toBe(201);
    taskId = (task.json as Json).id as string;
  }, ROUND_MS);

  afterAll(async () => {
    await coordinator?.stop();
    await host?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  /** A claim and an artifact submission; `sha256` defaults to that of the bytes served. */
  async function submit(signer: BtAuthSigner, name: string, idea: { proposed: string; implements?: string }, sha256?: string): Promise<string> {
    const pack = { taskId, baseRef, name, bytes: artifacts.get(name) as Buffer };
    const fields = { ...(sha256 === undefined ? {} : { artifact_sha256: sha256 }), proposed_idea: idea.proposed, implemented_submission_id: idea.implements ?? null };
    ids[name] = await submitPack(coordinator.url, signer, host, pack, fields);
    return ids[name];
  }

  /** One `validator-runner once`: it leases the one pending job, replays it and posts the verdict. */
  async function replayOnce(submissionId: string): Promise<Json> {
    const run = await runValidatorRunner(['once'], {
      COORDINATOR_URL: coordinator.url,
      VALIDATOR_MNEMONIC: validatorUri,
      ALLOW_LOCAL_REPOSITORIES: 'true',
      ALLOW_INSECURE_ARTIFACT_URIS: 'true',
      ALLOW_PRIVATE_ARTIFACT_HOSTS: 'true',
      RUNNER_WORK_DIR: join(root, 'work'),
      RUNNER_POST_BACKOFF_MS: '0',
      LOG_LEVEL: 'info',
    });
    expect(run).toMatchObject({ code: 0 });
    expect(run.stdout).not.toContain(SECRET);
    const list = await call(coordinator.url, 'GET', `/api/v1/verifications?submission_id=${submissionId}`, null);
    const recorded = list.json as Json[];
    expect(recorded).toHaveLength(1);
    return recorded[0];
  }

  async function best(): Promise<Json> {
    const answer = await call(coordinator.url, 'GET', `/api/v1/tasks/${taskId}/best`, null);
    expect(answer.status).toBe(200);
    return answer.json as Json;
  }

  async function replayLog(submissionId: string): Promise<string> {
    const response = await fetch(`${coordinator.url}/api/v1/submissions/${submissionId}/replay.log`, { headers: { 'X-Admin-Token': coordinator.adminToken } });
    return response.text();
  }

  // One round in order: each step's verdict depends on the best the steps before it left.
  it('decides a round by the 0.02-nat band, the secondary metric, the rescue cap, the artifact hash and the idea rule', async () => {
    // 1. The first eligible model is accepted and is the best, on the observed (not the claimed) metrics.
    const first = await replayOnce(await submit(alice, 'first', { proposed: 'ternary with 5 % rescue and a scale per 8 weights' }));
    expect(first).toMatchObject({ status: 'accepted', metric_name: 'heldout_ppl' });
    expect(first.observed_metrics).toEqual({ heldout_ppl: expect.any(Number), compressed_bytes: 6435 });
    expect(await best()).toMatchObject({ submission_id: ids.first, metric_value: first.metric_value });

    // 2. ~0.01 nats worse and >= 20 % smaller: inside the band, better on the secondary metric, so it replaces the first.
    const smaller = await replayOnce(await submit(alice, 'smaller', { proposed: 'twice the rescue, a quarter of the scales' }));
    expect(smaller).toMatchObject({ status: 'accepted' });
    expect((smaller.observed_metrics as Json).compressed_bytes).toBe(4285);
    const nats = Math.log(smaller.metric_value as number) - Math.log(first.metric_value as number);
    expect(nats).toBeGreaterThan(0);
    expect(nats).toBeLessThan(0.02);
    expect(await best()).toMatchObject({ submission_id: ids.smaller });

    // 3. ~0.1 nats worse: accepted, not the best (the second miner must name an idea of the first's).
    const worse = await replayOnce(await submit(bob, 'worse', { proposed: 'fewer rescue groups', implements: ids.first }));
    expect(worse).toMatchObject({ status: 'accepted' });
    expect(Math.log(worse.metric_value as number) - Math.log(first.metric_value as number)).toBeGreaterThan(0.07);
    expect(await best()).toMatchObject({ submission_id: ids.smaller });

    // 4. 12 % rescue: the setup check refuses it (no held-out data there), so the public note carries its sentence.
    const rescueId = await submit(bob, 'rescue12', { proposed: 'more rescue', implements: ids.smaller });
    expect(await replayOnce(rescueId)).toMatchObject({
      status: 'rejected',
      notes: 'ineligible (rescue_over_cap): Ineligible: 1536 of 12800 weights (12.0 %) are 4-bit rescue, over the cap of 10 %.',
    });
    expect(await replayLog(rescueId)).toContain('Ineligible: 1536 of 12800 weights (12.0 %) are 4-bit rescue, over the cap of 10 %.');

    // 5. Bytes that do not match artifact_sha256: rejected at the download, before any sandbox runs.
    const hashId = await submit(bob, 'first', { proposed: 'the same bytes, another hash', implements: ids.smaller }, 'ab'.repeat(32));
    const hash = await replayOnce(hashId);
    expect(hash).toMatchObject({ status: 'rejected' });
    expect(hash.notes).toMatch(/^The artifact's SHA-256 is [0-9a-f]{64}; the submission declares (ab){32}\.$/);
    expect(await replayLog(hashId)).not.toContain('sandbox with');
    expect(await best()).toMatchObject({ submission_id: ids.smaller });

    // 6. The second miner implements the first's idea and beats the best by more than the band: an idea reward.
    const better = await replayOnce(await submit(bob, 'better', { proposed: 'a scale per 4 weights', implements: ids.smaller }));
    expect(better).toMatchObject({ status: 'accepted' });
    expect(await best()).toMatchObject({ submission_id: ids.better, miner_hotkey: bob.hotkey });
    const rewards = await call(coordinator.url, 'GET', `/api/v1/idea-rewards?task_id=${taskId}`, null);
    expect(rewards.json).toEqual([
      expect.objectContaining({
        improved_submission_id: ids.better,
        idea_submission_id: ids.smaller,
        proposer_hotkey: alice.hotkey,
        implementer_hotkey: bob.hotkey,
        metric_name: 'heldout_ppl',
        previous_metric_value: smaller.metric_value,
        improved_metric_value: better.metric_value,
      }),
    ]);
    console.log(
      [first, smaller, worse, better].map((v, i) => `${['first', 'smaller', 'worse', 'better'][i]}: ${JSON.stringify(v.observed_metrics)}`).join('\n') +
        `\nidea reward: ${JSON.stringify(rewards.json)}`,
    );
  }, 6 * ROUND_MS);
});
