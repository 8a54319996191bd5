import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { BtAuthSigner, keypairFromUri } from '@rcs/auth';
import { ClaimDto, SubmissionDto, TaskDto } from '@rcs/contracts';
import { CoordinatorHarness } from './harness';

/** Test helpers of the submission suites: real HTTP against the harness, requests signed as sent. */

export interface Reply<T> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

export type Body = Record<string, unknown>;

/** Every field of the spec's Submission response, and nothing else. */
export const SUBMISSION_FIELDS = [
  'artifact_sha256',
  'artifact_size_bytes',
  'artifact_uri',
  'base_ref',
  'claim_id',
  'claimed_metrics',
  'created_at',
  'execution_log',
  'id',
  'implemented_submission_id',
  'miner_hotkey',
  'patch',
  'proposed_idea',
  'release',
  'status',
  'summary',
  'task_id',
  'updated_at',
];

/** The fields of the task TestClient.createTask makes unless told otherwise (it adds a fresh slug). */
export const TEST_TASK = {
  title: 'Submission test task',
  repository: 'https://git.test/research/task.git',
  base_ref: 'main',
  benchmark_command: 'python bench.py',
  allowed_patch_paths: ['src/**'],
  metric_name: 'loss',
  metric_direction: 'minimize',
  competition_mode: 'standard',
  time_budget_seconds: 600,
};

export async function signerFor(uri: string): Promise<BtAuthSigner> {
  return new BtAuthSigner(await keypairFromUri(uri));
}

export class TestClient {
  constructor(private readonly h: Pick<CoordinatorHarness, 'url' | 'adminToken'>) {}

  signed<T = Body>(signer: BtAuthSigner, method: string, url: string, body?: unknown): Promise<Reply<T>> {
    const text = body === undefined ? undefined : JSON.stringify(body);
    return this.send<T>(method, url, text, { ...signer.signRequest({ method, url, body: text }) });
  }

  admin<T = Body>(method: string, url: string, body?: unknown): Promise<Reply<T>> {
    return this.send<T>(method, url, body === undefined ? undefined : JSON.stringify(body), { 'X-Admin-Token': this.h.adminToken });
  }

  anonymous<T = Body>(method: string, url: string, body?: unknown): Promise<Reply<T>> {
    return this.send<T>(method, url, body === undefined ? undefined : JSON.stringify(body), {});
  }

  async createTask(fields: Body = {}): Promise<TaskDto> {
    const reply = await this.admin<TaskDto>('POST', '/api/v1/tasks', {
      slug: `task-${randomBytes(4).toString('hex')}`,
      ...TEST_TASK,
      ...fields,
    });
    expectStatus(reply, 201);
    return reply.body;
  }

  async claim(signer: BtAuthSigner, taskId: string): Promise<ClaimDto> {
    const reply = await this.signed<ClaimDto>(signer, 'POST', `/api/v1/tasks/${taskId}/claim`, {
      claim_description: 'Trying a change to the training loop.',
    });
    expectStatus(reply, 201);
    return reply.body;
  }

  submit<T = Body>(signer: BtAuthSigner, body: Body): Promise<Reply<T>> {
    return this.signed<T>(signer, 'POST', '/api/v1/submissions', { base_ref: 'main', summary: 'A change.', ...body });
  }

  /** Claims the task and submits on the claim; expects 201. */
  async submitted(signer: BtAuthSigner, taskId: string, body: Body): Promise<SubmissionDto> {
    const claim = await this.claim(signer, taskId);
    const reply = await this.submit<SubmissionDto>(signer, { claim_id: claim.id, ...body });
    expectStatus(reply, 201);
    return reply.body;
  }

  private async send<T>(method: string, url: string, body: string | undefined, headers: Record<string, string>): Promise<Reply<T>> {
    const response = await fetch(`${this.h.url}${url}`, {
      method,
      body,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    });
    const text = await response.text();
    let parsed: unknown = text;
    if (response.headers.get('content-type')?.startsWith('application/json')) parsed = JSON.parse(text);
    return { status: response.status, body: parsed as T, text, headers: response.headers };
  }
}

/** Fails with the answer's body in the message, so a wrong status explains itself. */
export function expectStatus(reply: Reply<unknown>, status: number): void {
  if (reply.status !== status) throw new UnexpectedReplyError(status, reply);
}

/** `expectStatus`, then the body's field names, sorted, are exactly `fields`: the reply's documented shape. */
export function expectReplyFields(reply: Reply<object>, status: number, fields: readonly string[]): void {
  expectStatus(reply, status);
  expect(Object.keys(reply.body).sort()).toEqual(fields);
}

export class UnexpectedReplyError extends Error {
  constructor(expected: number, reply: Reply<unknown>) {
    super(`expected HTTP ${expected}, got ${reply.status}: ${reply.text}`);
    this.name = 'UnexpectedReplyError';
  }
}

/** `[type, loc joined by '.']` of each 422 item, for compact expectations. */
export function itemsOf(reply: Reply<unknown>): [string, string][] {
  expectStatus(reply, 422);
  return (reply.body as { detail: { type: string; loc: (string | number)[] }[] }).detail.map((item) => [item.type, item.loc.join('.')]);
}

export function errorOf(reply: Reply<unknown>): string {
  return (reply.body as { detail: { error: string } }).detail.error;
}

/** A throwaway git repository: patches come from real `git diff --binary`, as miners make them. */
export class ScratchRepo {
  private constructor(readonly dir: string) {}

  static create(files: Record<string, string | Buffer>): ScratchRepo {
    const repo = new ScratchRepo(mkdtempSync(join(tmpdir(), 'rcs-submissions-')));
    repo.git('init', '-q');
    repo.write(files);
    repo.git('add', '-A', '--force');
    repo.git('commit', '-q', '-m', 'base');
    return repo;
  }

  /**
   * The patch from the base commit to the base plus `changes` (content to write, null to delete),
   * with `renames` applied first; the work tree returns to the base afterwards.
   */
  diff(changes: Record<string, string | Buffer | null>, renames: [from: string, to: string][] = []): string {
    try {
      for (const [from, to] of renames) {
        mkdirSync(dirname(join(this.dir, to)), { recursive: true });
        this.git('mv', from, to);
      }
      for (const [path, content] of Object.entries(changes)) {
        if (content === null) rmSync(join(this.dir, path));
      }
      this.write(Object.fromEntries(Object.entries(changes).filter((entry): entry is [string, string | Buffer] => entry[1] !== null)));
      // --force: a user's global ignore file must not drop the bytecode these tests submit.
      this.git('add', '-A', '--force');
      return this.git('diff', '--cached', '--binary', '-M');
    } finally {
      this.git('reset', '-q', '--hard', 'HEAD');
      this.git('clean', '-qfdx');
    }
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  private write(files: Record<string, string | Buffer>): void {
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(this.dir, path)), { recursive: true });
      writeFileSync(join(this.dir, path), content);
    }
  }

  private git(...args: string[]): string {
    const config = ['-c', 'user.name=test', '-c', 'user.email=test@rcs.invalid', '-c', 'commit.gpgsign=false', '-c', 'core.autocrlf=false'];
    return execFileSync('git', [...config, ...args], { cwd: this.dir, encoding: 'utf8' });
  }
}
