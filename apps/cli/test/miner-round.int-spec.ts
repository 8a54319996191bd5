import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mnemonicGenerate } from '@polkadot/util-crypto';
import { BtAuthSigner, keypairFromUri } from '@rcs/auth';
import { benchTaskBody, suiteTempDir, type RunningCoordinator } from '@rcs/testing';
import { EXIT } from '../src/errors';
import { createTaskWithRcs, git, originRepo, startCoordinatorWithValidator, validatorOnce } from './support/bench-round';
import { rcs } from './support/run-cli';

const BENCH_PY = `import json
scale = float(open('model.py').read().split('=')[1])
json.dump({'loss': abs(scale - 2) * 2.5, 'model_bytes': len(open('model.py').read())}, open('result.json', 'w'))
`;

/** A round through `rcs` only: the operator creates the task, the miner claims, submits from a git clone and watches, the validator runs `validator once`. */
describe('rcs against a running coordinator and validator runner', () => {
  let dir = '';
  suiteTempDir('rcs-round-', (path) => (dir = path));
  let coordinator: RunningCoordinator;
  let validatorUri: string;
  let env: NodeJS.ProcessEnv;
  let taskId: string;
  let baseRef: string;

  beforeAll(async () => {
    ({ coordinator, validatorUri } = await startCoordinatorWithValidator({ database: 'cli_e2e' }));
    const origin = originRepo(dir, { 'bench.py': BENCH_PY, 'model.py': 'SCALE = 1.0\n' });
    baseRef = origin.ref;
    // The miner: a development key in RCS_KEY_URI, the coordinator in RCS_COORDINATOR_URL, a HOME of its own.
    env = { HOME: join(dir, 'home'), RCS_COORDINATOR_URL: coordinator.url, RCS_KEY_URI: mnemonicGenerate(), RCS_ADMIN_TOKEN: coordinator.adminToken };
    const body = benchTaskBody(`file://${origin.path}`, baseRef, {
      slug: `cli-${randomBytes(4).toString('hex')}`,
      title: 'CLI round',
      // A secondary metric, which rcs shows wherever it shows the primary.
      secondary_metric_name: 'model_bytes',
      secondary_metric_direction: 'minimize',
      metric_resolution: 0.01,
    });
    taskId = await createTaskWithRcs(dir, body, env);
  }, 180_000);

  afterAll(async () => {
    await coordinator?.stop();
  });

  it('claims, submits the working tree of a clone, watches the runner accept it, and prints the best', async () => {
    const tasks = await rcs(['tasks'], env);
    expect(tasks.code).toBe(EXIT.ok);
    expect(tasks.stdout).toMatch(new RegExp(`${taskId}\\s+cli-\\w+\\s+live\\s+standard\\s+loss \\(minimize\\)\\s+-`));
    expect((await rcs(['onboard', taskId], env)).stdout).toContain('Agent API Workflow');

    const claim = await rcs(['claim', taskId, '--description', 'tune SCALE', '--json'], env);
    expect(claim.code).toBe(EXIT.ok);
    const claimId = (JSON.parse(claim.stdout) as { id: string }).id;
    const again = await rcs(['claim', taskId], env);
    expect(again).toMatchObject({ code: EXIT.refused, stderr: expect.stringContaining('duplicate_active_claim') });

    const clone = join(dir, 'clone');
    git(dir, 'clone', '-q', join(dir, 'origin'), clone);
    writeFileSync(join(clone, 'bench.py'), `${BENCH_PY}# faster\n`);
    const outside = await rcs(['submit', '--claim', claimId, '--repo', clone, '--summary', 'edits the benchmark'], env);
    expect(outside).toMatchObject({ code: EXIT.refused, stderr: expect.stringContaining('patch_path_not_allowed') });
    git(clone, 'checkout', '--', 'bench.py');
    writeFileSync(join(clone, 'model.py'), 'SCALE = 1.75\n');
    const submitted = await rcs(['submit', '--claim', claimId, '--repo', clone, '--summary', 'SCALE 1.75', '--metric', 'loss=0.7'], env);
    expect(submitted).toMatchObject({ code: EXIT.ok, stderr: expect.stringContaining(`against ${baseRef}: model.py`) });
    const submissionId = /submission:\s+(\S+)/.exec(submitted.stdout)?.[1] as string;

    const watching = rcs(['watch', submissionId, '--timeout', '150'], env);
    // The validator's side through the CLI too: `rcs validator once` runs the runner with the CLI's identity and coordinator.
    const runner = await validatorOnce(dir, coordinator.url, validatorUri);
    expect(runner.code === 0 ? runner.code : runner.stdout + runner.stderr).toBe(0);
    // Readable lines for the person who ran it, not the JSON lines of a deployment's logs.
    const runnerLines = `${runner.stdout}${runner.stderr}`.split('\n').filter((line) => line.trim() !== '');
    expect(runnerLines.length).toBeGreaterThan(0);
    expect(runnerLines.filter((line) => line.startsWith('{'))).toEqual([]);
    const watched = await watching;
    expect(watched).toMatchObject({ code: EXIT.ok });
    expect(watched.stdout).toMatch(/status:\s+accepted/);
    expect(watched.stdout).toMatch(/accepted\s+loss = 0\.625, model_bytes = 13\s/);
    expect(watched.stdout).toMatch(new RegExp(`best:\\s+loss = 0\\.625, model_bytes = 13 by \\S+ \\(submission ${submissionId}\\)`));
    expect((await rcs(['status', submissionId], env)).stdout).toMatch(/accepted\s+loss = 0\.625, model_bytes = 13\s/);

    const status = await rcs(['status', submissionId, '--json'], env);
    expect(status.code).toBe(EXIT.ok);
    expect(JSON.parse(status.stdout)).toMatchObject({ submission: { id: submissionId, status: 'accepted' } });
    expect((await rcs(['tasks'], env)).stdout).toMatch(/loss \(minimize\)\s+0\.625/);
  }, 240_000);

  it('submits an artifact with its SHA-256 and size, progress on stderr', async () => {
    const claim = await rcs(['claim', taskId, '--json'], env);
    const claimId = (JSON.parse(claim.stdout) as { id: string }).id;
    const artifact = join(dir, 'weights.bin');
    writeFileSync(artifact, Buffer.alloc(3 * 1024 * 1024, 1));
    const submitted = await rcs(['submit', '--claim', claimId, '--task', taskId, '--artifact-only', '--artifact', artifact, '--artifact-uri', 'https://artifacts.example.org/weights.bin', '--summary', 'weights', '--json'], env);
    expect(submitted.code).toBe(EXIT.ok);
    // stderr is a pipe here, not a terminal: the bar is one line, written when the file is hashed.
    expect(submitted.stderr.match(/^sha256 .*$/gm)).toEqual([`sha256 [${'#'.repeat(30)}] 100%  3.0 MiB / 3.0 MiB`]);
    const sha = execFileSync('sha256sum', [artifact], { encoding: 'utf8' }).split(' ')[0];
    expect(JSON.parse(submitted.stdout)).toMatchObject({ artifact_uri: 'https://artifacts.example.org/weights.bin', artifact_size_bytes: 3 * 1024 * 1024, patch: '' });
    const path = `/api/v1/submissions/${(JSON.parse(submitted.stdout) as { id: string }).id}/artifact`;
    const miner = new BtAuthSigner(await keypairFromUri(env['RCS_KEY_URI'] as string));
    const descriptor = await (await fetch(`${coordinator.url}${path}`, { headers: { ...miner.signRequest({ method: 'GET', url: path }) } })).json();
    expect(descriptor).toMatchObject({ artifact_sha256: sha });
    expect(readFileSync(artifact).length).toBe(3 * 1024 * 1024);
  }, 60_000);

  it('cancels a claim; the server refuses a second cancel (exit 1, its detail printed; --json prints its error body)', async () => {
    await rcs(['admin', 'task', 'pause', taskId], env);
    const paused = await rcs(['claim', taskId], env);
    expect(paused).toMatchObject({ code: EXIT.refused, stderr: expect.stringContaining('task_not_live') });
    expect((await rcs(['admin', 'task', 'resume', taskId], env)).stdout).toContain('paused → live');
    const claimId = (JSON.parse((await rcs(['claim', taskId, '--json'], env)).stdout) as { id: string }).id;
    expect(await rcs(['cancel', claimId], env)).toMatchObject({ code: EXIT.ok, stdout: expect.stringMatching(/status:\s+cancelled/) });
    const twice = await rcs(['cancel', claimId, '--json'], env);
    expect(twice).toMatchObject({ code: EXIT.refused, stderr: expect.stringContaining('claim_not_active') });
    expect(JSON.parse(twice.stdout)).toMatchObject({ detail: { error: 'claim_not_active' } });
  }, 60_000);
});
