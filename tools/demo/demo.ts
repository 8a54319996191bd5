/**
 * The first end-to-end round on the local stack, over HTTP only: a task on a real local git
 * repository whose benchmark computes a metric from data, a miner's improving patch replayed by the
 * validator runner in its sandbox, a patch outside the allowed surface refused, and a worse result
 * accepted without taking the best. Every unexpected answer is a RoundStepError.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { BtAuthSigner } from '@rcs/auth';
import { expectField, git, Json, RoundClient, RoundStepError, stringField } from '../round/round';

export interface DemoOptions {
  url: string;
  adminToken: string;
  /** Two miners: the first improves the model, the second tries a forbidden file and then a worse model. */
  miners: [BtAuthSigner, BtAuthSigner];
  /** How long to wait for the runner to decide one submission. */
  decisionTimeoutMs: number;
  log: (line: string) => void;
  /** Where the task's repository is made (default: the system temp folder, private); given, it is readable by every user, for a runner container that mounts it. */
  repositoryParent?: string;
}

const MODEL = (slope: number, intercept: number) =>
  [`SLOPE = ${slope.toFixed(1)}`, `INTERCEPT = ${intercept.toFixed(1)}`, '', 'def predict(x):', '    return SLOPE * x + INTERCEPT', ''].join('\n');

const BENCH = [
  'import csv, json',
  'from model import predict',
  '',
  'rows = [(float(x), float(y)) for x, y in csv.reader(open("data.csv")) if x != "x"]',
  'mse = sum((predict(x) - y) ** 2 for x, y in rows) / len(rows)',
  'json.dump({"mse": mse, "rows": len(rows)}, open("result.json", "w"))',
  'print(f"mse={mse}")',
  '',
].join('\n');

/** y = 3x + 1 with a small fixed wobble, so the best model is close to but not exactly (3, 1). */
function data(): string {
  const lines = ['x,y'];
  for (let i = 0; i < 200; i++) {
    const x = i / 10;
    lines.push(`${x},${(3 * x + 1 + 0.25 * Math.sin(i)).toFixed(6)}`);
  }
  return lines.join('\n') + '\n';
}

function createBenchmarkRepository(dir: string): string {
  git(dir, 'init', '-q');
  writeFileSync(join(dir, 'model.py'), MODEL(1, 0));
  writeFileSync(join(dir, 'bench.py'), BENCH);
  writeFileSync(join(dir, 'data.csv'), data());
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'baseline model');
  return git(dir, 'rev-parse', 'HEAD').trim();
}

/** A patch as a miner makes it: edit the working tree, `git diff --binary`, then restore the base. */
function patchOf(dir: string, file: string, content: string): string {
  writeFileSync(join(dir, file), content);
  const patch = git(dir, 'diff', '--binary');
  git(dir, 'checkout', '-q', '--', '.');
  return patch;
}

export async function runDemo(options: DemoOptions): Promise<void> {
  const { log } = options;
  const [alice, bob] = options.miners;
  const api = new RoundClient(options.url, options.adminToken, alice);
  const repo = mkdtempSync(join(options.repositoryParent ?? tmpdir(), 'rcs-demo-'));
  // mkdtemp makes it private; a runner under another uid (a container's) must read it.
  if (options.repositoryParent !== undefined) chmodSync(repo, 0o755);
  try {
    const baseRef = createBenchmarkRepository(repo);
    log(`repository: ${repo} at ${baseRef} (model.py, bench.py, data.csv)`);

    const slug = `demo-${randomBytes(4).toString('hex')}`;
    const task = await api.send('create task', 'POST', '/api/v1/tasks', 201, {
      auth: 'admin',
      body: {
        slug,
        title: 'Fit the line',
        brief: 'Lower the mean squared error of model.py on data.csv.',
        repository: repo,
        base_ref: baseRef,
        benchmark_command: 'python3 bench.py',
        result_path: 'result.json',
        allowed_patch_paths: ['model.py'],
        metric_name: 'mse',
        metric_direction: 'minimize',
        competition_mode: 'standard',
        time_budget_seconds: 120,
      },
    });
    const taskId = stringField('create task', task, 'id');
    log(`task: ${taskId} (${slug})`);

    // 1. An improving patch, replayed by the runner and accepted as the new best.
    const good = await submit(api, alice, taskId, baseRef, patchOf(repo, 'model.py', MODEL(3, 1)), { mse: 0.0001 });
    const first = await waitForDecision(api, alice, good, options);
    expectField('first decision', first, 'status', 'accepted');
    const best = await api.send('best result', 'GET', `/api/v1/tasks/${taskId}/best`, 200, { auth: 'none' });
    expectField('best result', best, 'submission_id', good);
    expectField('best result', best, 'miner_hotkey', alice.hotkey);
    log(`accepted: ${good} by ${alice.hotkey}, observed mse=${String(best.metric_value)} (claimed 0.0001 is ignored)`);

    // 2. A patch outside the allowed surface is refused before anything is stored.
    const claim = await claimTask(api, bob, taskId);
    const refused = await api.send('forbidden patch', 'POST', '/api/v1/submissions', 422, {
      auth: 'signed',
      signer: bob,
      body: { claim_id: claim, base_ref: baseRef, patch: patchOf(repo, 'bench.py', BENCH.replace('/ len(rows)', '/ 1e9')), summary: 'Rescale the score' },
    });
    const refusal = JSON.stringify(refused);
    if (!refusal.includes('patch_path_not_allowed')) throw new RoundStepError('forbidden patch', 422, refusal, 'expected patch_path_not_allowed');
    log('refused: a patch to bench.py (outside model.py) → 422 patch_path_not_allowed');

    // 3. A worse model is accepted but does not take the best.
    const worse = await submitOnClaim(api, bob, claim, baseRef, patchOf(repo, 'model.py', MODEL(2, 1)));
    const third = await waitForDecision(api, bob, worse, options);
    expectField('third decision', third, 'status', 'accepted');
    const stillBest = await api.send('best result', 'GET', `/api/v1/tasks/${taskId}/best`, 200, { auth: 'none' });
    expectField('best result', stillBest, 'submission_id', good);
    log(`accepted: ${worse} by ${bob.hotkey} with a worse mse; the best stays ${good}`);

    const snapshot = await waitForSnapshot(api, slug, alice.hotkey, options);
    log(`reward snapshot (${String(snapshot.generated_at)}): ${JSON.stringify(snapshot.miners)}`);
    // Its repository goes with the demo: closed, the task keeps its best and scores but no miner can claim it.
    await api.send('close task', 'POST', `/api/v1/tasks/${taskId}/close`, 200, { auth: 'admin' });
    log(`closed: task ${taskId} (its repository is removed; its best and scores stay)`);
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
}

async function claimTask(api: RoundClient, miner: BtAuthSigner, taskId: string): Promise<string> {
  const claim = await api.send('claim', 'POST', `/api/v1/tasks/${taskId}/claim`, 201, {
    auth: 'signed',
    signer: miner,
    body: { claim_description: 'Fit the line better than the baseline.' },
  });
  return stringField('claim', claim, 'id');
}

async function submit(api: RoundClient, miner: BtAuthSigner, taskId: string, baseRef: string, patch: string, claimed: Json): Promise<string> {
  const claim = await claimTask(api, miner, taskId);
  return submitOnClaim(api, miner, claim, baseRef, patch, claimed);
}

async function submitOnClaim(api: RoundClient, miner: BtAuthSigner, claimId: string, baseRef: string, patch: string, claimed: Json = {}): Promise<string> {
  const submission = await api.send('submit', 'POST', '/api/v1/submissions', 201, {
    auth: 'signed',
    signer: miner,
    body: { claim_id: claimId, base_ref: baseRef, patch, summary: 'New slope and intercept.', claimed_metrics: claimed },
  });
  return stringField('submit', submission, 'id');
}

/** Polls the submission until a validator decided it (readiness polling with a deadline, not a sleep for sync). */
export async function waitForDecision(api: RoundClient, miner: BtAuthSigner, submissionId: string, options: DemoOptions): Promise<Json> {
  options.log(`waiting for the validator runner to replay ${submissionId}…`);
  const deadline = Date.now() + options.decisionTimeoutMs;
  for (;;) {
    const submission = await api.send('poll submission', 'GET', `/api/v1/submissions/${submissionId}`, 200, { auth: 'signed', signer: miner });
    if (submission.status !== 'pending_verification') return submission;
    if (Date.now() > deadline) {
      throw new RoundStepError('poll submission', 200, JSON.stringify(submission), `no decision within ${options.decisionTimeoutMs / 1000} s — is the validator runner running?`);
    }
    await delay(1000);
  }
}

async function waitForSnapshot(api: RoundClient, slug: string, hotkey: string, options: DemoOptions): Promise<Json> {
  const deadline = Date.now() + options.decisionTimeoutMs;
  for (;;) {
    const snapshot = await api.send('reward snapshot', 'GET', '/api/v1/reward-snapshot', 200, { auth: 'none' });
    const entry = (snapshot.competitions as Json[]).find((competition) => competition.slug === slug);
    const miners = (entry?.miners ?? []) as Json[];
    if (miners.some((miner) => miner.miner_hotkey === hotkey)) return { generated_at: snapshot.generated_at, miners };
    if (Date.now() > deadline) throw new RoundStepError('reward snapshot', 200, JSON.stringify(entry ?? {}), `the snapshot never named ${hotkey}`);
    await delay(1000);
  }
}
