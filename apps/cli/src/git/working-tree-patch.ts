import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { processEnv } from '../config/settings';
import { CliUsageError } from '../errors';

const run = promisify(execFile);

/**
 * `git diff --binary` of the working tree of `dir` against `baseRef`: committed and uncommitted changes, new
 * files included (unless git ignores them). New files are staged in a throwaway index, so the miner's own
 * index is never touched.
 */
export async function workingTreePatch(dir: string, baseRef: string): Promise<string> {
  const index = mkdtempSync(join(tmpdir(), 'rcs-index-'));
  const env = { ...gitEnv(), GIT_INDEX_FILE: join(index, 'index') };
  try {
    await git(dir, ['rev-parse', '--is-inside-work-tree'], env, `${dir} is not a git working tree`);
    await git(dir, ['cat-file', '-e', `${baseRef}^{commit}`], env, `the task's base ${baseRef} is not in ${dir}: fetch it (git fetch origin ${baseRef}) or clone the task's repository`);
    await git(dir, ['add', '--all', '--', '.'], env, `git add in ${dir} failed`);
    return await git(dir, ['diff', '--binary', '--cached', baseRef], env, `git diff in ${dir} failed`);
  } finally {
    rmSync(index, { recursive: true, force: true });
  }
}

async function git(dir: string, args: string[], env: NodeJS.ProcessEnv, failure: string): Promise<string> {
  try {
    const { stdout } = await run('git', args, { cwd: dir, env, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' });
    return stdout;
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim();
    throw new CliUsageError(`${failure}${stderr ? ` (${stderr.split('\n')[0]})` : ''}`);
  }
}

/** The child's environment: the user's, with the repository chosen by `cwd` alone. */
function gitEnv(): NodeJS.ProcessEnv {
  const env = { ...processEnv() };
  for (const name of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE']) delete env[name];
  return env;
}
