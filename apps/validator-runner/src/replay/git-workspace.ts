import { execFile } from 'node:child_process';
import { isAbsolute } from 'node:path';
import { ReplayFailure } from './replay-failure';
import { Deadline } from './deadline';

/** git runs on the host (it needs the network the sandbox has not); this keeps it from running anything else. */
const SAFE_GIT = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', '-c', 'advice.detachedHead=false'];
const OUTPUT_LIMIT = 4 * 1024 * 1024;

export interface GitOptions {
  /** The host environment git runs with (PATH, HOME, proxies, ssh agent). */
  env: Record<string, string>;
  allowLocalRepositories: boolean;
  deadline: Deadline;
}

export interface GitRun {
  stdout: string;
  stderr: string;
}

class GitCommandError extends Error {
  constructor(
    readonly stderr: string,
    readonly timedOut: boolean,
  ) {
    super(stderr);
    this.name = 'GitCommandError';
  }
}

/** Why a repository URL is refused, or null when it may be cloned. */
export function repositoryProblem(repository: string, allowLocal: boolean): string | null {
  if (repository.startsWith('-')) return 'the repository URL starts with "-"';
  if (/^https:\/\/[^/]/i.test(repository) || /^ssh:\/\/[^/]/i.test(repository)) return null;
  // scp-like `user@host:path`, as ssh clones are usually written.
  if (/^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:[^/]/.test(repository)) return null;
  if (/^file:\/\//i.test(repository) || isAbsolute(repository)) {
    return allowLocal ? null : 'local repositories (file:// or a path) are allowed only with ALLOW_LOCAL_REPOSITORIES=true';
  }
  return 'only https://, ssh:// and user@host:path repositories can be cloned';
}

export interface CheckoutSpec {
  repository: string;
  baseRef: string;
  baseCommitSha: string | null;
}

/** Clones without checking out, then checks out base_commit_sha (else base_ref) detached; answers the commit. */
export async function cloneAt(spec: CheckoutSpec, directory: string, options: GitOptions): Promise<string> {
  const problem = repositoryProblem(spec.repository, options.allowLocalRepositories);
  if (problem !== null) throw ReplayFailure.error(`The task's repository cannot be cloned: ${problem}.`);
  const protocols = options.allowLocalRepositories ? 'https:ssh:file' : 'https:ssh';
  const env = { ...options.env, GIT_TERMINAL_PROMPT: '0', GIT_ALLOW_PROTOCOL: protocols, GIT_CONFIG_NOSYSTEM: '1' };
  const run = (args: string[], cwd?: string) => git(args, { cwd, env, deadline: options.deadline });
  await attempt(run(['clone', '--no-checkout', '--quiet', '--', spec.repository, directory]), 'clone the repository');
  const commit = await resolveCommit(spec, (args) => run(args, directory));
  await attempt(run(['checkout', '--quiet', '--detach', commit], directory), `check out ${commit}`);
  return commit;
}

async function resolveCommit(spec: CheckoutSpec, run: (args: string[]) => Promise<GitRun>): Promise<string> {
  const verify = async (ref: string): Promise<string | null> => {
    try {
      return (await run(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`])).stdout.trim();
    } catch (error) {
      if (error instanceof GitCommandError && !error.timedOut) return null;
      throw error;
    }
  };
  if (spec.baseCommitSha !== null) {
    const sha = spec.baseCommitSha;
    // A commit no branch reaches is not in the clone; servers that allow it answer a fetch by id.
    const found = (await attempt(verify(sha), 'look up the base commit')) ?? (await fetchCommit(sha, run));
    if (found === null) throw ReplayFailure.error(`The base commit ${sha} is not in the repository.`);
    return found;
  }
  if (spec.baseRef.startsWith('-')) throw ReplayFailure.error(`The base ref "${spec.baseRef}" is not a ref.`);
  for (const candidate of [`refs/remotes/origin/${spec.baseRef}`, `refs/tags/${spec.baseRef}`, spec.baseRef]) {
    const found = await attempt(verify(candidate), 'resolve the base ref');
    if (found !== null) return found;
  }
  throw ReplayFailure.error(`The base ref "${spec.baseRef}" is not in the repository.`);
}

async function fetchCommit(sha: string, run: (args: string[]) => Promise<GitRun>): Promise<string | null> {
  try {
    await run(['fetch', '--quiet', '--end-of-options', 'origin', sha]);
    return (await run(['rev-parse', '--verify', '--quiet', '--end-of-options', `${sha}^{commit}`])).stdout.trim();
  } catch (error) {
    if (error instanceof GitCommandError && !error.timedOut) return null;
    throw asFailure(error, 'fetch the base commit');
  }
}

/**
 * `git apply --index` of a patch file that already passed checkPatch; a patch that does not apply
 * rejects the submission.
 */
export async function applyPatch(directory: string, patchFile: string, options: Omit<GitOptions, 'allowLocalRepositories'>): Promise<void> {
  try {
    await git(['apply', '--index', '--whitespace=nowarn', '--', patchFile], { cwd: directory, env: options.env, deadline: options.deadline });
  } catch (error) {
    if (error instanceof GitCommandError && !error.timedOut) {
      throw ReplayFailure.rejected(`The patch does not apply to the base: ${firstLines(error.stderr, 5)}`);
    }
    throw asFailure(error, 'apply the patch');
  }
}

/** Runs the step; a git failure or the deadline becomes an `error` naming it. */
async function attempt<T>(step: Promise<T>, what: string): Promise<T> {
  try {
    return await step;
  } catch (error) {
    throw asFailure(error, what);
  }
}

function asFailure(error: unknown, what: string): unknown {
  if (!(error instanceof GitCommandError)) return error;
  if (error.timedOut) return ReplayFailure.error(`The time budget ran out while trying to ${what}.`);
  return ReplayFailure.error(`Could not ${what}: ${firstLines(error.stderr, 5)}`);
}

function git(args: string[], options: { cwd?: string; env: Record<string, string>; deadline: Deadline }): Promise<GitRun> {
  const signal = options.deadline.signal();
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      [...SAFE_GIT, ...args],
      { cwd: options.cwd, env: options.env, signal, killSignal: 'SIGKILL', maxBuffer: OUTPUT_LIMIT, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (error) reject(new GitCommandError(stderr || error.message, signal.aborted));
        else resolve({ stdout, stderr });
      },
    );
  });
}

function firstLines(text: string, count: number): string {
  const lines = text.trim().split('\n').slice(0, count).join(' | ');
  return lines === '' ? 'no message' : lines;
}
