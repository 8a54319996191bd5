/**
 * One scripted competition round against a running coordinator, over HTTP only: a task on a small
 * git repository, a signed claim, a real `git diff --binary` patch submitted on it, then the
 * submission list and detail. Every unexpected answer stops the round with a RoundStepError.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BtAuthSigner } from '@rcs/auth';

export interface RoundOptions {
  /** Coordinator base URL, e.g. http://127.0.0.1:8000 */
  url: string;
  adminToken: string;
  /** The miner hotkey that claims and submits. */
  signer: BtAuthSigner;
  /** Receives one line per step. */
  log?: (line: string) => void;
  /**
   * How long to wait for the submission's decision (0: not at all). The task's repository is a temporary
   * directory the runner clones: it is removed once the submission is decided, and kept (its path logged)
   * when no decision came in time, so that a runner that replays it later still finds it.
   */
  decisionWaitSeconds?: number;
}

export interface RoundResult {
  taskId: string;
  claimId: string;
  submissionId: string;
  patch: string;
  /** The submission's status when the round ended: `pending_verification` unless a decision came. */
  status: string;
}

const DECISION_POLL_MS = 1000;

/** An answer the round did not expect: which step, what came back. */
export class RoundStepError extends Error {
  constructor(
    readonly step: string,
    readonly status: number,
    readonly body: string,
    reason: string,
  ) {
    super(`${step}: ${reason} (HTTP ${status}): ${body.slice(0, 2000)}`);
    this.name = 'RoundStepError';
  }
}

/** The round's train.py: writes its loss after 10 steps to result.json (0.6065 at the round's learning rate 0.05). */
export const TRAIN_PY = [
  'import json',
  'import math',
  '',
  'LEARNING_RATE = 0.01',
  '',
  'def loss(step):',
  '    return math.exp(-LEARNING_RATE * step)',
  '',
  "if __name__ == '__main__':",
  "    with open('result.json', 'w') as out:",
  "        json.dump({'loss': loss(10)}, out)",
  '',
].join('\n');

/** The round's submission was decided and not accepted: the round played, but not as a miner wants. */
export class RoundNotAcceptedError extends Error {
  constructor(readonly status: string) {
    super(`the submission was not accepted (${status}); its decision line above says why`);
    this.name = 'RoundNotAcceptedError';
  }
}

/** What the round's last line says: ok while its submission is accepted or still pending, not ok once refused. */
export function roundOutcome(result: Pick<RoundResult, 'taskId' | 'submissionId' | 'status'>): { ok: boolean; line: string } {
  const ok = result.status === 'accepted' || result.status === 'pending_verification';
  return { ok, line: `round: ${ok ? 'ok' : 'not accepted'} (task ${result.taskId}, submission ${result.submissionId}, ${result.status})` };
}

export type Json = Record<string, unknown>;

export async function runRound(options: RoundOptions): Promise<RoundResult> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const api = new RoundClient(options.url, options.adminToken, options.signer);
  const repo = mkdtempSync(join(tmpdir(), 'rcs-round-'));
  let keepRepository = false;
  try {
    const baseRef = createRepository(repo);
    log(`repository: ${repo} at ${baseRef}`);

    const task = await api.send('create task', 'POST', '/api/v1/tasks', 201, {
      auth: 'admin',
      body: {
        slug: `round-${randomBytes(4).toString('hex')}`,
        title: 'Scripted round',
        brief: 'Lower the loss of train.py.',
        repository: `file://${repo}`,
        base_ref: baseRef,
        // The sandbox, like Debian, has python3 and no `python`.
        benchmark_command: 'python3 train.py',
        result_path: 'result.json',
        allowed_patch_paths: ['train.py'],
        metric_name: 'loss',
        metric_direction: 'minimize',
        competition_mode: 'centerless',
        time_budget_seconds: 600,
      },
    });
    const taskId = stringField('create task', task, 'id');
    log(`task: ${taskId} (${String(task.slug)}, ${String(task.competition_mode)}, ${String(task.task_state)})`);

    const claim = await api.send('claim task', 'POST', `/api/v1/tasks/${taskId}/claim`, 201, {
      auth: 'signed',
      body: { claim_description: 'Scripted round: raise the learning rate.' },
    });
    const claimId = stringField('claim task', claim, 'id');
    expectField('claim task', claim, 'status', 'active');
    log(`claim: ${claimId} by ${options.signer.hotkey}, expires ${String(claim.expires_at)}`);

    writeFileSync(join(repo, 'train.py'), TRAIN_PY.replace('0.01', '0.05'));
    const patch = git(repo, 'diff', '--binary');
    log(`patch: ${Buffer.byteLength(patch)} bytes from git diff --binary`);

    const submission = await api.send('submit', 'POST', '/api/v1/submissions', 201, {
      auth: 'signed',
      body: {
        claim_id: claimId,
        base_ref: baseRef,
        patch,
        summary: 'Raised the learning rate from 0.01 to 0.05.',
        proposed_idea: 'Warm up the learning rate over the first 100 steps.',
        claimed_metrics: { loss: 0.61 },
        execution_log: 'loss=0.61\n',
      },
    });
    const submissionId = stringField('submit', submission, 'id');
    expectField('submit', submission, 'status', 'pending_verification');
    expectField('submit', submission, 'patch', patch);
    log(`submission: ${submissionId} (${String(submission.status)})`);

    const list = await api.send('list submissions', 'GET', `/api/v1/submissions?task_id=${taskId}`, 200, { auth: 'signed' });
    if (!Array.isArray(list) || !list.some((item) => (item as Json).id === submissionId)) {
      throw new RoundStepError('list submissions', 200, JSON.stringify(list), `submission ${submissionId} is not listed`);
    }
    log(`list: ${list.length} submission(s) on the task`);

    const detail = await api.send('submission detail', 'GET', `/api/v1/submissions/${submissionId}/detail`, 200, { auth: 'signed' });
    expectField('submission detail', detail, 'metric_name', 'loss');
    log(`detail: metric ${String(detail.metric_name)}, ${(detail.verifications as unknown[]).length} verification(s)`);

    const waitSeconds = options.decisionWaitSeconds ?? 0;
    const status = waitSeconds > 0 ? await waitForDecision(api, submissionId, waitSeconds) : 'pending_verification';
    if (status === 'pending_verification' && waitSeconds > 0) {
      keepRepository = true;
      log(`decision: none within ${waitSeconds} s (is a validator runner running?); ${repo} is kept for the runner to clone`);
    } else if (status !== 'pending_verification') {
      const decided = await api.send('submission detail', 'GET', `/api/v1/submissions/${submissionId}/detail`, 200, { auth: 'signed' });
      const notes = (decided.verifications as { status?: string; notes?: string | null }[]).map((v) => v.notes).filter((n): n is string => typeof n === 'string' && n !== '');
      log(`decision: ${status}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`);
      // Decided, the task is done with: closed, so that no miner claims it once its repository is removed.
      await api.send('close task', 'POST', `/api/v1/tasks/${taskId}/close`, 200, { auth: 'admin' });
      log(`closed: task ${taskId}`);
    }
    return { taskId, claimId, submissionId, patch, status };
  } finally {
    if (!keepRepository) rmSync(repo, { recursive: true, force: true });
  }
}

/** Polls the submission until it leaves `pending_verification` or `seconds` pass; answers its status then. */
async function waitForDecision(api: RoundClient, submissionId: string, seconds: number): Promise<string> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const submission = await api.send('submission status', 'GET', `/api/v1/submissions/${submissionId}`, 200, { auth: 'signed' });
    const status = String(submission.status);
    if (status !== 'pending_verification' || Date.now() >= deadline) return status;
    await new Promise((resolve) => setTimeout(resolve, DECISION_POLL_MS));
  }
}

/** A one-commit repository with train.py; answers the commit id (the task's pinned base ref). */
export function createRepository(dir: string): string {
  git(dir, 'init', '-q');
  writeFileSync(join(dir, 'train.py'), TRAIN_PY);
  git(dir, 'add', 'train.py');
  git(dir, 'commit', '-q', '-m', 'baseline');
  return git(dir, 'rev-parse', 'HEAD').trim();
}

export function git(dir: string, ...args: string[]): string {
  // Identity and signing set here so the round never depends on the user's git configuration.
  const config = ['-c', 'user.name=rcs-round', '-c', 'user.email=round@rcs.invalid', '-c', 'commit.gpgsign=false'];
  return execFileSync('git', [...config, ...args], { cwd: dir, encoding: 'utf8' });
}

export function stringField(step: string, body: Json, field: string): string {
  const value = body[field];
  if (typeof value !== 'string') throw new RoundStepError(step, 0, JSON.stringify(body), `"${field}" is not a string`);
  return value;
}

export function expectField(step: string, body: Json, field: string, expected: unknown): void {
  if (body[field] !== expected) {
    throw new RoundStepError(step, 0, JSON.stringify(body), `expected "${field}" to be ${JSON.stringify(expected)}`);
  }
}

/** Signed, admin or anonymous JSON requests to the coordinator; each answer is checked against the status the step expects. */
export class RoundClient {
  constructor(
    private readonly baseUrl: string,
    private readonly adminToken: string,
    private readonly signer: BtAuthSigner,
  ) {}

  /** Sends one request and answers its JSON body; any other status than `expected` is a RoundStepError. */
  async send(
    step: string,
    method: 'GET' | 'POST',
    url: string,
    expected: number,
    request: { auth: 'admin' | 'signed' | 'none'; body?: Json; signer?: BtAuthSigner },
  ): Promise<Json> {
    // The exact text sent is the text signed.
    const body = request.body === undefined ? undefined : JSON.stringify(request.body);
    const headers = this.headers(method, url, body, request);
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}${url}`, { method, headers, body });
    } catch (error) {
      throw new RoundStepError(step, 0, '', `no answer from ${this.baseUrl} (${(error as Error).message})`);
    }
    const text = await response.text();
    if (response.status !== expected) throw new RoundStepError(step, response.status, text, `expected HTTP ${expected}`);
    try {
      return JSON.parse(text) as Json;
    } catch {
      throw new RoundStepError(step, response.status, text, 'the answer is not JSON');
    }
  }

  private headers(method: string, url: string, body: string | undefined, request: { auth: 'admin' | 'signed' | 'none'; signer?: BtAuthSigner }): Record<string, string> {
    switch (request.auth) {
      case 'admin':
        return { 'X-Admin-Token': this.adminToken };
      case 'signed':
        return { ...(request.signer ?? this.signer).signRequest({ method, url, body }) };
      case 'none':
        return {};
    }
  }
}
