import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mnemonicGenerate } from '@polkadot/util-crypto';
import { BtAuthSigner, keypairFromUri } from '@rcs/auth';
import { benchTaskBody, createTestRedis, metricValue, RunningCoordinator, runValidatorRunner, scrapeMetrics, spawnService, startCoordinatorProcess, startRedisServer } from '@rcs/testing';
import { createBenchRepo, scalePatch } from './bench-repo';
import { DroppingProxy } from './support/dropping-proxy';
import { call, Json } from './support/coordinator';

/**
 * The first end-to-end round: a task on a local repository, a miner's signed claim and submission, then
 * `validator-runner once` (its real entry point, the bwrap sandbox) leases, replays and posts; the
 * coordinator decides the submission by the observed metric.
 */
/** `probe` until `done` holds, for at most `timeoutMs` (the runner works on its own schedule). */
async function until<T>(what: string, probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new UntilTimeoutError(what);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

class UntilTimeoutError extends Error {
  constructor(what: string) {
    super(`Timed out waiting until ${what}`);
    this.name = 'UntilTimeoutError';
  }
}

describe('validator-runner once against a running coordinator', () => {
  let root: string;
  let coordinator: RunningCoordinator;
  let validatorUri: string;
  let miner: BtAuthSigner;
  let taskId: string;
  let baseRef: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'runner-once-'));
    baseRef = createBenchRepo(join(root, 'origin'));
    validatorUri = mnemonicGenerate();
    const validator = new BtAuthSigner(await keypairFromUri(validatorUri));
    miner = new BtAuthSigner(await keypairFromUri(mnemonicGenerate()));
    coordinator = await startCoordinatorProcess({ validatorHotkey: validator.hotkey, database: 'runner_e2e' });
    taskId = await createTask(`file://${join(root, 'origin')}`);
  }, 180_000);

  afterAll(async () => {
    await coordinator?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  /** A live task on `repository`; answers its id. */
  async function createTask(repository: string): Promise<string> {
    const task = await call(
      coordinator.url,
      'POST',
      '/api/v1/tasks',
      { admin: coordinator.adminToken },
      benchTaskBody(repository, baseRef, { slug: `runner-${randomBytes(4).toString('hex')}`, title: 'Runner end to end', validator_benchmark_env: { DATASET_MIX: 'validator-only-mix' } }),
    );
    expect(task.status).toBe(201);
    return (task.json as Json).id as string;
  }

  /** A claim and a submission by the miner (on the main task unless told); answers the submission id. */
  async function submit(scale: string, claimedLoss: number, onTask = taskId): Promise<string> {
    const claim = await call(coordinator.url, 'POST', `/api/v1/tasks/${onTask}/claim`, { signer: miner }, { claim_description: 'tune SCALE' });
    expect(claim.status).toBe(201);
    const submission = await call(coordinator.url, 'POST', '/api/v1/submissions', { signer: miner }, {
      claim_id: (claim.json as Json).id,
      base_ref: baseRef,
      patch: scalePatch(scale),
      summary: `SCALE = ${scale}`,
      claimed_metrics: { loss: claimedLoss },
    });
    expect(submission.status).toBe(201);
    return (submission.json as Json).id as string;
  }

  const runnerEnv = (coordinatorUrl: string): NodeJS.ProcessEnv => ({
    COORDINATOR_URL: coordinatorUrl,
    VALIDATOR_MNEMONIC: validatorUri,
    ALLOW_LOCAL_REPOSITORIES: 'true',
    RUNNER_WORK_DIR: join(root, 'work'),
    RUNNER_POST_BACKOFF_MS: '0',
    LOG_LEVEL: 'info',
  });

  async function verifications(submissionId: string): Promise<Json[]> {
    const list = await call(coordinator.url, 'GET', `/api/v1/verifications?submission_id=${submissionId}`, null);
    return list.json as Json[];
  }

  it('leases, replays in the sandbox and posts: the submission is accepted with the observed metric, not the claimed one', async () => {
    const submissionId = await submit('1.5', 0.0001);
    const run = await runValidatorRunner(['once'], runnerEnv(coordinator.url));
    expect(run).toMatchObject({ code: 0 });
    for (const phase of ['scan', 'clone', 'patch', 'benchmark', 'post']) expect(run.stdout).toContain(`"phase":"${phase}"`);
    expect(run.stdout).toMatch(/"msg":"job finished: accepted, posted"/);
    expect(run.stdout).not.toContain('validator-only-mix');

    const recorded = await verifications(submissionId);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ status: 'accepted', metric_name: 'loss', metric_value: 1.25 });
    // The task's metric only: `rows`, also in result.json, is not posted.
    expect(recorded[0].observed_metrics).toEqual({ loss: 1.25 });
    const detail = await call(coordinator.url, 'GET', `/api/v1/submissions/${submissionId}`, { signer: miner });
    expect(detail.json).toMatchObject({ status: 'accepted' });
    const log = await fetch(`${coordinator.url}/api/v1/submissions/${submissionId}/replay.log`, { headers: { 'X-Admin-Token': coordinator.adminToken } });
    const text = await log.text();
    expect(text).toContain('----- benchmark output -----');
    expect(text).not.toContain('validator-only-mix');
  }, 180_000);

  it('checks /verifications after a lost answer and does not post twice', async () => {
    const submissionId = await submit('1.75', 0.0001);
    const proxy = new DroppingProxy(coordinator.url, (method, path) => method === 'POST' && path.endsWith('/result'));
    await proxy.start();
    try {
      const run = await runValidatorRunner(['once'], runnerEnv(proxy.url));
      expect(run).toMatchObject({ code: 0 });
      expect(run.stdout).toMatch(/"msg":"post: already_recorded"/);
      expect(proxy.seen.filter((line) => line.startsWith('POST') && line.endsWith('/result'))).toHaveLength(1);
      expect(proxy.seen).toContain(`GET /api/v1/verifications?submission_id=${submissionId}`);
    } finally {
      await proxy.stop();
    }
    const recorded = await verifications(submissionId);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ status: 'accepted', metric_value: 0.625 });
  }, 180_000);

  it('run: the scan loop queues the leased job on runner.replay and a worker replays and posts it', async () => {
    const submissionId = await submit('1.25', 0.0001);
    const redis = await createTestRedis();
    const runner = await spawnService({
      entry: 'apps/validator-runner/src/main.ts',
      portVariable: 'VALIDATOR_RUNNER_PORT',
      healthPath: '/healthz',
      env: { ...runnerEnv(coordinator.url), REDIS_URL: redis.url, REDIS_KEY_PREFIX: redis.prefix, RUNNER_SCAN_INTERVAL_SECONDS: '1' },
    });
    try {
      // The runner works on its own schedule: watch for the verification it posts.
      const deadline = Date.now() + 90_000;
      let recorded: Json[] = [];
      while (recorded.length === 0 && Date.now() < deadline) {
        recorded = await verifications(submissionId);
        if (recorded.length === 0) await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(recorded).toHaveLength(1);
      expect(recorded[0]).toMatchObject({ status: 'accepted', metric_value: 1.875 });
      // /metrics: the replay counted and timed by outcome once the worker finished it, the queue drained.
      const metrics = await until(
        'the replay is counted',
        () => scrapeMetrics(runner.url),
        (text) => metricValue(text, 'validator_replays_total', { outcome: 'accepted', posted: 'posted' }) === 1,
      );
      expect(metricValue(metrics, 'validator_replay_duration_seconds_count', { outcome: 'accepted' })).toBe(1);
      expect(metricValue(metrics, 'bullmq_queue_jobs', { queue: 'runner.replay', state: 'waiting' })).toBe(0);
      expect(metricValue(metrics, 'http_request_duration_seconds_count', { route: '/healthz', status_code: '200' })).toBeGreaterThanOrEqual(1);
    } finally {
      // Its Redis goes whatever the runner's exit, or a redis-server left running keeps Jest from exiting.
      const code = await runner.stop();
      await redis.cleanup();
      // A code other than 0 (null: killed by a signal) comes with what the runner printed last.
      expect({ code, output: code === 0 ? '' : runner.output().slice(-3000) }).toEqual({ code: 0, output: '' });
    }
    expect(runner.output()).toMatch(/"msg":"job finished: accepted, posted"/);
  }, 180_000);

  it('logs the reason of an error decision in the job\'s final line, as a field and in the message', async () => {
    const missingRepoTask = await createTask(`file://${join(root, 'no-such-repository')}`);
    const submissionId = await submit('1.5', 0.0001, missingRepoTask);
    // The clone fails before anything would run in a sandbox, so this one needs no bwrap.
    const run = await runValidatorRunner(['once'], { ...runnerEnv(coordinator.url), SANDBOX: 'none', SANDBOX_ALLOW_NONE: 'true' });
    expect(run).toMatchObject({ code: 0 });
    const finished = run.stdout
      .split('\n')
      .filter((line) => line.includes('"msg":"job finished:'))
      .map((line) => JSON.parse(line) as Json);
    expect(finished).toHaveLength(1);
    expect(finished[0]).toMatchObject({ outcome: 'error', posted: 'posted', reason: expect.stringMatching(/^Could not clone the repository: /) });
    expect(finished[0].msg).toBe(`job finished: error, posted (${finished[0].reason as string})`);
    // The same reason the coordinator records for the decision.
    const recorded = await verifications(submissionId);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ status: 'error', notes: finished[0].reason });
  }, 180_000);

  it('run: /readyz is ready while Redis and the coordinator answer, and 503 naming Redis once its Redis stops', async () => {
    const redis = await startRedisServer();
    const runner = await spawnService({
      entry: 'apps/validator-runner/src/main.ts',
      portVariable: 'VALIDATOR_RUNNER_PORT',
      healthPath: '/healthz',
      // Nothing is pending, so nothing is replayed: this one needs no bwrap.
      env: { ...runnerEnv(coordinator.url), REDIS_URL: redis.url, SANDBOX: 'none', SANDBOX_ALLOW_NONE: 'true' },
    });
    type Readiness = { status: string; checks: Record<string, { ok: boolean; error?: string }>; accelerators: unknown };
    // No GPU is selected: whatever the host has, the runner exposes and declares none.
    const accelerators = expect.objectContaining({ sandbox_gpus: 'none', capabilities: { gpu_count: 0, gpu_memory_gb: 0 } });
    const readyz = async () => {
      const response = await fetch(`${runner.url}/readyz`);
      return { status: response.status, body: (await response.json()) as Readiness };
    };
    try {
      expect(await readyz()).toEqual({ status: 200, body: { status: 'ready', checks: { redis: { ok: true }, coordinator: { ok: true } }, accelerators } });
      await redis.stop();
      expect(await readyz()).toEqual({
        status: 503,
        body: { status: 'not_ready', checks: { redis: { ok: false, error: expect.any(String) }, coordinator: { ok: true } }, accelerators },
      });
      await redis.start();
      await until('/readyz is ready again', readyz, (answer) => answer.status === 200);
    } finally {
      // Its Redis goes whatever the runner's exit, or a redis-server left running keeps Jest from exiting.
      const code = await runner.stop();
      await redis.destroy();
      // A code other than 0 (null: killed by a signal) comes with what the runner printed last.
      expect({ code, output: code === 0 ? '' : runner.output().slice(-3000) }).toEqual({ code: 0, output: '' });
    }
  }, 120_000);

  it('exits 0 with nothing to do when no job is pending', async () => {
    const run = await runValidatorRunner(['once'], runnerEnv(coordinator.url));
    expect(run).toMatchObject({ code: 0 });
    expect(run.stdout).toContain('scan: leased 0 job(s)');
  }, 120_000);
});
