import { execFileSync } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mnemonicGenerate } from '@polkadot/util-crypto';
import { BtAuthSigner, keypairFromUri } from '@rcs/auth';
import { ArtifactHost, packTernaryArtifacts, PACKS_DIR, callService, RunningCoordinator, runValidatorRunner, startCoordinatorProcess } from '@rcs/testing';
import { submitPack } from './support/submit-pack';

/**
 * The autoresearch pack (BitSota's replay profile, DECISIONS §15) on a real coordinator, replayed by
 * `validator-runner once` in the bwrap sandbox: the private shard uploaded to the coordinator as a tar of their
 * manifest format, the rotation pair from the coordinator's lease, verdicts from the pack's own refusal lines.
 */
const SEED = 'autoresearch-heldout-seed';
const ROTATION_SECRET = 'rotation-secret-of-the-round';
const YEAR = 31_536_000;
const ROUND_MS = 240_000;

type Json = Record<string, unknown>;

const call = callService;

function python(cwd: string, args: string[], env: Record<string, string> = {}): string {
  return execFileSync('python3', args, { cwd, encoding: 'utf8', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', OPENBLAS_NUM_THREADS: '1', PYTHONDONTWRITEBYTECODE: '1', ...env } });
}

describe('the autoresearch pack (BitSota profile) through a real coordinator and the runner in bwrap', () => {
  let root: string;
  let origin: string;
  let coordinator: RunningCoordinator;
  let host: ArtifactHost;
  const validators: { uri: string; signer: BtAuthSigner }[] = [];
  let miner: BtAuthSigner;
  let baseRef: string;
  const artifacts = new Map<string, Buffer>();
  const shards: Record<string, Buffer> = {};
  const runnerLogs: string[] = [];

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'rcs-autoresearch-'));
    origin = join(root, 'origin');
    mkdirSync(origin);
    for (const part of ['lib', 'ternary', 'autoresearch', 'tools', 'README.md', '.gitignore']) cpSync(join(PACKS_DIR, part), join(origin, part), { recursive: true });
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=ops', '-c', 'user.email=ops@rcs.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: origin, encoding: 'utf8' }).trim();
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'packs');
    baseRef = git('rev-parse', 'HEAD');
    for (const [name, extra] of [['good', []], ['stray', ['--stray']]] as const) {
      python(origin, ['tools/make_autoresearch_heldout.py', '--seed', SEED, '--out', join(root, `${name}.tar`), ...extra]);
      shards[name] = readFileSync(join(root, `${name}.tar`));
    }
    for (const [name, bytes] of packTernaryArtifacts(origin, join(root, 'miner'), [
      { name: 'eligible', rescueFraction: '0.05', scaleGroup: '8' },
      { name: 'rescue12', rescueFraction: '0.12', scaleGroup: '128' },
    ])) {
      artifacts.set(name, bytes);
    }
    for (let i = 0; i < 2; i += 1) {
      const uri = mnemonicGenerate();
      validators.push({ uri, signer: new BtAuthSigner(await keypairFromUri(uri)) });
    }
    miner = new BtAuthSigner(await keypairFromUri(mnemonicGenerate()));
    host = new ArtifactHost();
    await host.start();
    coordinator = await startCoordinatorProcess({
      validatorHotkey: validators.map((v) => v.signer.hotkey).join(','),
      database: 'autoresearch_round',
      env: {
        ALLOW_INSECURE_ARTIFACT_URIS: 'true',
        HELDOUT_ROTATION_SECRET: ROTATION_SECRET,
        HELDOUT_STORE_DIR: join(root, 'store'),
      },
    });
  }, ROUND_MS);

  afterAll(async () => {
    await coordinator?.stop();
    await host?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  /** A task of the pack's README body (standard mode: no idea rules), with this env and, when given, a shard uploaded. */
  async function task(env: Record<string, string>, shard: Buffer | null): Promise<string> {
    const readme = readFileSync(join(PACKS_DIR, 'autoresearch', 'README.md'), 'utf8');
    const body = JSON.parse((/```json\n([\s\S]*?)\n```/.exec(readme) as RegExpExecArray)[1]) as Json;
    const created = await call(coordinator.url, 'POST', '/api/v1/tasks', { admin: coordinator.adminToken }, {
      ...body,
      slug: `autoresearch-${randomBytes(4).toString('hex')}`,
      repository: `file://${origin}`,
      base_ref: baseRef,
      competition_mode: 'standard',
      time_budget_seconds: 300,
      heldout_rotation_seconds: YEAR,
      validator_benchmark_env: env,
    });
    expect(created.status).toBe(201);
    const id = (created.json as Json).id as string;
    if (shard !== null) {
      const upload = await fetch(`${coordinator.url}/api/v1/tasks/${id}/heldout`, {
        method: 'POST',
        body: shard,
        headers: { 'x-admin-token': coordinator.adminToken, 'content-type': 'application/octet-stream', 'x-heldout-name': 'shard.tar' },
      });
      expect(upload.status).toBe(201);
    }
    return id;
  }

  async function submit(taskId: string, name: string): Promise<string> {
    return submitPack(coordinator.url, miner, host, { taskId, baseRef, name, bytes: artifacts.get(name) as Buffer });
  }

  /** One `validator-runner once` by validator `index`; answers the submission's verification, or null when it leased nothing. */
  async function replayOnce(index: number, submissionId: string): Promise<Json | null> {
    const run = await runValidatorRunner(['once'], {
      COORDINATOR_URL: coordinator.url,
      VALIDATOR_MNEMONIC: validators[index].uri,
      ALLOW_LOCAL_REPOSITORIES: 'true',
      ALLOW_INSECURE_ARTIFACT_URIS: 'true',
      ALLOW_PRIVATE_ARTIFACT_HOSTS: 'true',
      RUNNER_WORK_DIR: join(root, `work-${index}`),
      RUNNER_POST_BACKOFF_MS: '0',
      LOG_LEVEL: 'info',
    });
    expect(run).toMatchObject({ code: 0 });
    runnerLogs.push(run.stdout, run.stderr);
    const list = await call(coordinator.url, 'GET', `/api/v1/verifications?submission_id=${submissionId}`, null);
    const recorded = list.json as Json[];
    return recorded[0] ?? null;
  }

  /** The pack run by hand on the unpacked shard with the slot and number the coordinator's lease gives. */
  function directRun(taskId: string, artifact: string, slotsLater = 0): number {
    const dir = mkdtempSync(join(root, 'direct-'));
    mkdirSync(join(dir, 'root'));
    execFileSync('tar', ['-xf', join(root, 'good.tar'), '-C', join(dir, 'root')]);
    execFileSync('cp', [join(root, 'miner', `${artifact}.npz`), join(dir, 'model.npz')]);
    const slot = Math.floor(Date.now() / 1000 / YEAR) + slotsLater;
    const number = createHmac('sha256', ROTATION_SECRET).update(`${taskId}:${slot}`).digest().subarray(0, 16).toString('hex');
    python(dir, [join(origin, 'autoresearch', 'bench.py')], {
      AUTORESEARCH_SUBMISSION_ARTIFACT_PATH: join(dir, 'model.npz'),
      AUTORESEARCH_PRIVATE_HELDOUT_MANIFEST: join(dir, 'root', 'manifest.json'),
      AUTORESEARCH_PRIVATE_HELDOUT_ROOT: join(dir, 'root'),
      AUTORESEARCH_HELDOUT_SYNC_SLOT: String(slot),
      AUTORESEARCH_HELDOUT_SYNC_NUMBER: number,
    });
    return (JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')) as { metrics: { heldout_ppl: number } }).metrics.heldout_ppl;
  }

  it('accepts an eligible artifact with the metric of a direct run, the same for two validators of one slot, and rejects an ineligible one', async () => {
    const taskId = await task({ AUTORESEARCH_PRIVATE_HELDOUT_SHARD: 'coordinator' }, shards.good);
    const first = await replayOnce(0, await submit(taskId, 'eligible'));
    expect(first).toMatchObject({ status: 'accepted', metric_name: 'heldout_ppl' });
    const direct = directRun(taskId, 'eligible');
    expect(Math.abs((first?.metric_value as number) - direct)).toBeLessThanOrEqual(1e-9);
    // The second validator, in the same slot, scores the same documents: the same value.
    const second = await replayOnce(1, await submit(taskId, 'eligible'));
    expect(second).toMatchObject({ status: 'accepted', metric_value: first?.metric_value, validator_hotkey: validators[1].signer.hotkey });
    // The next slot's pair draws other documents.
    const nextSlot = directRun(taskId, 'eligible', 1);
    expect(nextSlot).not.toBe(direct);
    const refused = await replayOnce(0, await submit(taskId, 'rescue12'));
    expect(refused).toMatchObject({ status: 'rejected', notes: 'ineligible (high_precision_fraction)' });
    console.log(`direct run heldout_ppl=${direct} (next slot: ${nextSlot})\nreplay ${JSON.stringify(first?.observed_metrics)} (validator 0), ${JSON.stringify(second?.observed_metrics)} (validator 1)\nrescue12: ${refused?.status} (${String(refused?.notes)})`);
  }, ROUND_MS);

  it('blames the validator’s side: a crashing benchmark and a missing manifest are error; a task without its shard is not leased', async () => {
    const crashing = await replayOnce(0, await submit(await task({ AUTORESEARCH_PRIVATE_HELDOUT_SHARD: 'coordinator' }, shards.stray), 'eligible'));
    expect(crashing).toMatchObject({ status: 'error', notes: 'benchmark_failed (exit 1)' });
    const noManifest = await replayOnce(0, await submit(await task({ RCS_REPLAY_PROFILE: 'bitsota-autoresearch-v1' }, null), 'eligible'));
    expect(noManifest).toMatchObject({ status: 'error', notes: 'The benchmark exited with code 1.' });
    const waiting = await submit(await task({ AUTORESEARCH_PRIVATE_HELDOUT_SHARD: 'coordinator' }, null), 'eligible');
    expect(await replayOnce(0, waiting)).toBeNull();
    const detail = await call(coordinator.url, 'GET', `/api/v1/submissions/${waiting}`, { signer: miner });
    expect(detail.json).toMatchObject({ id: waiting, status: 'pending_verification' });
    for (const log of runnerLogs) {
      expect(log).not.toContain(SEED);
      expect(log).not.toContain(ROTATION_SECRET);
    }
  }, ROUND_MS);
});
