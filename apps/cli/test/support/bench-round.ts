import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mnemonicGenerate } from '@polkadot/util-crypto';
import { keypairFromUri } from '@rcs/auth';
import { childProcessBaseEnv, startCoordinatorProcess, type RunningCoordinator } from '@rcs/testing';
import { EXIT } from '../../src/errors';
import { rcs, type CliRun } from './run-cli';

/** The setup of the suites that play a round through `rcs` against a coordinator's real process and a benchmark repository of their own. */

/** `git` in `dir` with a throwaway identity and no signing; its trimmed output. */
export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@rcs.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, encoding: 'utf8' }).trim();
}

/** The runner's bwrap sandbox where it is installed; else unconfined (the benchmark is the test's own script). */
export function sandboxEnv(): NodeJS.ProcessEnv {
  try {
    execFileSync('which', ['bwrap'], { stdio: 'ignore' });
    return {};
  } catch {
    return { SANDBOX: 'none', SANDBOX_ALLOW_NONE: 'true' };
  }
}

/** `<dir>/origin`, a repository on `main` holding `files` in one commit: its path and that commit. */
export function originRepo(dir: string, files: Record<string, string>, message = 'baseline'): { path: string; ref: string } {
  const path = join(dir, 'origin');
  mkdirSync(path);
  git(path, 'init', '-q', '-b', 'main');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(path, name), text);
  git(path, 'add', '.');
  git(path, 'commit', '-q', '-m', message);
  return { path, ref: git(path, 'rev-parse', 'HEAD') };
}

/** The coordinator's process with a fresh validator key on its allowlist, and that key's URI (for `rcs validator once`). */
export async function startCoordinatorWithValidator(options: { database: string; env?: NodeJS.ProcessEnv }): Promise<{ coordinator: RunningCoordinator; validatorUri: string }> {
  const validatorUri = mnemonicGenerate();
  const coordinator = await startCoordinatorProcess({ ...options, validatorHotkey: (await keypairFromUri(validatorUri)).address });
  return { coordinator, validatorUri };
}

/** Creates the task through `rcs admin task create --file` (an admin token in `env`); its id. */
export async function createTaskWithRcs(dir: string, body: object, env: NodeJS.ProcessEnv): Promise<string> {
  const taskFile = join(dir, 'task.json');
  writeFileSync(taskFile, JSON.stringify(body));
  const created = await rcs(['admin', 'task', 'create', '--file', taskFile, '--json'], env);
  expect(created).toMatchObject({ code: EXIT.ok });
  return (JSON.parse(created.stdout) as { id: string }).id;
}

/** `rcs validator once` as the validator of `validatorUri`: the runner replays local repositories under `<dir>/work`, in bwrap where installed. */
export function validatorOnce(dir: string, coordinatorUrl: string, validatorUri: string, env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  return rcs(['validator', 'once'], {
    ...childProcessBaseEnv(),
    ...sandboxEnv(),
    HOME: join(dir, 'home'),
    RCS_COORDINATOR_URL: coordinatorUrl,
    RCS_KEY_URI: validatorUri,
    ALLOW_LOCAL_REPOSITORIES: 'true',
    RUNNER_WORK_DIR: join(dir, 'work'),
    ...env,
  });
}
