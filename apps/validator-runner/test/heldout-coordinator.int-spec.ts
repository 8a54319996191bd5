import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mnemonicGenerate } from '@polkadot/util-crypto';
import pino from 'pino';
import { BtAuthSigner, keypairFromUri } from '@rcs/auth';
import { ValidatorJobDto, VerificationStatus } from '@rcs/contracts';
import { benchTaskBody, RunningCoordinator, startCoordinatorProcess } from '@rcs/testing';
import { CoordinatorClient } from '../src/coordinator/coordinator.client';
import { heldoutSandboxEnv, planBenchmarkEnv, prefetchHeldout, PrefetchOptions } from '../src/replay/heldout';
import { ReplayPipeline } from '../src/replay/replay-pipeline';
import { toResultBody } from '../src/runner/job-processor';
import { createSandbox } from '../src/sandbox/create-sandbox';
import { unmountUnder } from '../src/sandbox/workspace-volume';
import { createBenchRepo, scalePatch } from './bench-repo';
import { call, Json } from './support/coordinator';
import { replayFailureOf } from './support/replay-failure-of';
import { replayOptions } from './support/replay-options';

/** Public-internet rules: only the coordinator's own origin may be a loopback `http://` address. */
const STRICT = { allowInsecureHttp: false, allowPrivateAddresses: false, allowFile: false };

/**
 * The runner's prefetch of a coordinator-held shard (DECISIONS §6) against a real coordinator process: the
 * job's env names the shard, the runner fetches it signed with its validator key, checks its SHA-256, and
 * the sandbox gets only the local path and the manifest.
 */
describe('prefetch of a coordinator-held shard', () => {
  let root: string;
  let coordinator: RunningCoordinator;
  let validator: BtAuthSigner;
  let stranger: BtAuthSigner;
  let miner: BtAuthSigner;
  let baseRef: string;
  let taskId: string;
  const shard = Buffer.from(`{"text": "held out ${randomBytes(8).toString('hex')}"}\n`);
  const shardSha = createHash('sha256').update(shard).digest('hex');
  const SHARD_NAME = `eval-${randomBytes(4).toString('hex')}.jsonl`;
  const logger = pino({ level: 'silent' });

  const clientOf = (signer: BtAuthSigner): CoordinatorClient =>
    new CoordinatorClient({ baseUrl: coordinator.url, timeoutMs: 10_000, postAttempts: 1, postBackoffMs: 0 }, signer, logger);

  const options = (directory: string, client: CoordinatorClient | null): PrefetchOptions => ({
    directory,
    rules: STRICT,
    maxBytes: 1024 * 1024,
    signal: new AbortController().signal,
    coordinator: client?.heldoutSource(),
  });

  /** A pending submission on the task, leased to the validator by a real signed scan. */
  async function leasedJob(): Promise<ValidatorJobDto> {
    const claim = await call(coordinator.url, 'POST', `/api/v1/tasks/${taskId}/claim`, { signer: miner }, { claim_description: 'tune SCALE' });
    expect(claim.status).toBe(201);
    const submission = await call(coordinator.url, 'POST', '/api/v1/submissions', { signer: miner }, {
      claim_id: (claim.json as Json).id,
      base_ref: baseRef,
      patch: scalePatch('1.5'),
      summary: 'SCALE = 1.5',
      claimed_metrics: { loss: 1 },
    });
    expect(submission.status).toBe(201);
    const [job] = await clientOf(validator).scan(1);
    expect(job.submission_id).toBe((submission.json as Json).id);
    return job;
  }

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'runner-heldout-'));
    baseRef = createBenchRepo(join(root, 'origin'));
    const validatorUri = mnemonicGenerate();
    validator = new BtAuthSigner(await keypairFromUri(validatorUri));
    stranger = new BtAuthSigner(await keypairFromUri(mnemonicGenerate()));
    miner = new BtAuthSigner(await keypairFromUri(mnemonicGenerate()));
    // Debug logs: the coordinator's whole log must still carry neither the shard nor its name.
    coordinator = await startCoordinatorProcess({ validatorHotkey: validator.hotkey, database: 'runner_heldout', env: { HELDOUT_STORE_DIR: join(root, 'store'), LOG_LEVEL: 'debug' } });
    const task = await call(
      coordinator.url,
      'POST',
      '/api/v1/tasks',
      { admin: coordinator.adminToken },
      benchTaskBody(`file://${join(root, 'origin')}`, baseRef, { validator_benchmark_env: { HELDOUT_SHARD: 'coordinator', DATASET_MIX: 'mix-a' } }),
    );
    expect(task.status).toBe(201);
    taskId = (task.json as Json).id as string;
    const upload = await fetch(`${coordinator.url}/api/v1/tasks/${taskId}/heldout`, {
      method: 'POST',
      body: shard,
      headers: { 'x-admin-token': coordinator.adminToken, 'content-type': 'application/octet-stream', 'x-heldout-name': SHARD_NAME },
    });
    expect(upload.status).toBe(201);
  }, 180_000);

  afterAll(async () => {
    unmountUnder(root);
    await coordinator?.stop();
    // Read once the process has exited, so its last lines are in.
    const log = coordinator?.service.output() ?? '';
    rmSync(root, { recursive: true, force: true });
    // Checked after every test's requests (upload, scans, downloads, refusals).
    expect(log).toContain('/heldout');
    expect(log).not.toContain(SHARD_NAME);
    expect(log).not.toContain(shard.toString().trim());
  });

  it('fetches the leased job’s shard signed, checks its SHA-256, and gives the sandbox only the local path', async () => {
    const job = await leasedJob();
    const plan = planBenchmarkEnv(job.replay_spec.validator_benchmark_env);
    expect(plan.sources).toEqual([{ name: 'HELDOUT', url: `${coordinator.url}/api/v1/validator/jobs/${job.job_id}/heldout`, token: null, sha256: shardSha }]);
    const directory = join(root, 'job-1', 'heldout');
    const manifest = await prefetchHeldout(plan.sources, options(directory, clientOf(validator)));
    expect(manifest.HELDOUT).toEqual({ env: 'HELDOUT_PATH', path: join(directory, 'HELDOUT', 'heldout'), bytes: shard.length, sha256: shardSha });
    expect(readFileSync(manifest.HELDOUT.path)).toEqual(shard);

    const sandboxEnv = heldoutSandboxEnv(plan, manifest, directory);
    expect(sandboxEnv).toEqual({ DATASET_MIX: 'mix-a', HELDOUT_PATH: manifest.HELDOUT.path, HELDOUT_MANIFEST: join(directory, 'manifest.json') });
    for (const value of Object.values(sandboxEnv)) {
      expect(value).not.toContain(coordinator.url);
      expect(value).not.toContain(shardSha);
    }
  }, 60_000);

  it('replays a leased job in the bwrap sandbox on the shard, posts, and the verification records the shard for admins only', async () => {
    const job = await leasedJob();
    const client = clientOf(validator);
    // Public-internet rules for every other source (the default): only the coordinator's own origin may be loopback http.
    const pipeline = new ReplayPipeline(
      replayOptions(root, { coordinator: client.heldoutSource() }),
      createSandbox({ kind: 'bwrap', allowUnsafeNone: false, logger }),
      logger,
    );
    const result = await pipeline.replay(job);
    expect(result).toMatchObject({ status: VerificationStatus.Accepted, observedMetrics: { loss: 1.25 } });

    // What the benchmark saw: the local path and the manifest, never the URL or the digest.
    const env = JSON.parse(readFileSync(join(root, 'work', job.job_id, 'repo', 'env.json'), 'utf8')) as Record<string, string>;
    expect(env.HELDOUT_PATH).toBe(join(root, 'work', job.job_id, 'heldout', 'HELDOUT', 'heldout'));
    expect(env.DATASET_MIX).toBe('mix-a');
    expect(env).not.toHaveProperty('HELDOUT_URL');
    expect(env).not.toHaveProperty('HELDOUT_SHA256');
    expect(JSON.stringify(env)).not.toContain(shardSha);

    const posted = await client.postResult(job.job_id, toResultBody(job, result));
    expect(posted.kind).toBe('posted');
    const audit = await call(coordinator.url, 'GET', `/api/v1/tasks/${taskId}/heldout/verifications`, { admin: coordinator.adminToken });
    expect(audit.json).toEqual(expect.arrayContaining([expect.objectContaining({ job_id: job.job_id, heldout_sha256: shardSha, heldout_name: SHARD_NAME })]));
    const summaries = await call(coordinator.url, 'GET', `/api/v1/verifications?submission_id=${job.submission_id}`, null);
    expect(JSON.stringify(summaries.json)).not.toContain(shardSha);
  }, 120_000);

  it('ends the replay in error for a digest other than the one announced, and leaves no file behind', async () => {
    const job = await leasedJob();
    const [source] = planBenchmarkEnv(job.replay_spec.validator_benchmark_env).sources;
    const directory = join(root, 'job-2', 'heldout');
    const failure = await replayFailureOf(prefetchHeldout([{ ...source, sha256: '0'.repeat(64) }], options(directory, clientOf(validator))));
    expect(failure).toMatchObject({ status: VerificationStatus.Error });
    // The public note names neither the source nor a digest; the admin log gets both.
    expect(failure.note).toBe('A held-out source did not have the sha256 announced; it was not used.');
    expect(failure.logDetail).toBe(`HELDOUT: sha256 ${shardSha}, not the ${'0'.repeat(64)} announced`);
    expect(existsSync(join(directory, 'HELDOUT', 'heldout'))).toBe(false);
  }, 60_000);

  it('is refused to another key (403) and, without the coordinator as a source, never leaves for a loopback address', async () => {
    const job = await leasedJob();
    const { sources } = planBenchmarkEnv(job.replay_spec.validator_benchmark_env);
    const byStranger = await replayFailureOf(prefetchHeldout(sources, options(join(root, 'job-3a'), clientOf(stranger))));
    expect(byStranger.note).toBe('A held-out source could not be prefetched: the server answered 403.');
    const unsigned = await replayFailureOf(prefetchHeldout(sources, options(join(root, 'job-3b'), null)));
    expect(unsigned.note).toContain('only https://');
    const unsignedLocal = await replayFailureOf(
      prefetchHeldout(sources, { ...options(join(root, 'job-3c'), null), rules: { allowInsecureHttp: true, allowPrivateAddresses: true, allowFile: false } }),
    );
    expect(unsignedLocal.note).toBe('A held-out source could not be prefetched: the server answered 401.');
  }, 60_000);
});
