import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childProcessBaseEnv } from '../config';
import { freePort } from '../net/free-port';
import { REPO_ROOT } from './repo-node';

/** Where a test's local stack lives: its own data directory and free ports, so that it never meets another stack. */
export interface LocalStackPlace {
  dataDir: string;
  ports: { coordinator: number; runner: number; pool: number; weightSetter: number; web: number };
  /** DATA_DIR, LOG_LEVEL warn and the ports of the coordinator, runner, pool and web UI (a stack with the weight setter adds WEIGHT_SETTER_PORT). */
  env: NodeJS.ProcessEnv;
}

/** A fresh data directory `<tmp>/<name>-…` and free ports for a stack that `startLocalStack` starts. */
export async function localStackPlace(name: string): Promise<LocalStackPlace> {
  const dataDir = mkdtempSync(join(tmpdir(), `${name}-`));
  const [coordinator, runner, pool, weightSetter, web] = [await freePort(), await freePort(), await freePort(), await freePort(), await freePort()];
  return {
    dataDir,
    ports: { coordinator, runner, pool, weightSetter, web },
    env: {
      ...childProcessBaseEnv(),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      COORDINATOR_PORT: String(coordinator),
      VALIDATOR_RUNNER_PORT: String(runner),
      POOL_PORT: String(pool),
      WEB_PORT: String(web),
    },
  };
}

/** `npm start`'s launcher, started by a test and ready (its banner ended with `stack: ready`). */
export interface LocalStack {
  /** What it printed so far, stdout and stderr together. */
  output(): string;
  /** Ctrl-C (SIGINT), waits for the launcher's exit, then stops whatever its services left in its process group. */
  stop(): Promise<void>;
}

/**
 * Starts `tools/stack/main.ts` with the given apps in its own process group and waits for its banner's
 * `stack: ready`; rejects with what it printed when it exits first. `stop` leaves nothing that holds its
 * output pipes, so Jest is not kept waiting after the suite.
 */
export async function startLocalStack(apps: string[], env: NodeJS.ProcessEnv): Promise<LocalStack> {
  const stack = spawn(process.execPath, ['-r', '@swc-node/register', 'tools/stack/main.ts', ...apps], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  stack.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => stack.once('exit', (code) => resolve(code)));
  const stop = async (): Promise<void> => {
    if (stack.exitCode === null && stack.signalCode === null) stack.kill('SIGINT');
    await exited;
    if (stack.pid !== undefined) {
      try {
        process.kill(-stack.pid, 'SIGKILL');
      } catch {
        // the group is already gone
      }
    }
    stack.stdout.destroy();
    stack.stderr.destroy();
  };
  try {
    await new Promise<void>((resolve, reject) => {
      stack.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('stack: ready')) resolve();
      });
      void exited.then((code) => reject(new Error(`the stack exited (${code}) before it was ready:\n${output.slice(-4000)}`)));
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { output: () => output, stop };
}
