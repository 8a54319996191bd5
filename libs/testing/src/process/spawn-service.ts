import { ChildProcess, spawn } from 'node:child_process';
import { childProcessBaseEnv } from '../config';
import { freePort } from '../net/free-port';
import { waitForHttp } from '../net/wait-for-http';
import { REPO_ROOT, repoNodeArgs } from './repo-node';


export interface SpawnedService {
  url: string;
  child: ChildProcess;
  /** Everything the process wrote so far (stdout and stderr). */
  output(): string;
  /** Sends the signal and resolves with the exit code (null when killed by a signal). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface SpawnServiceOptions {
  /** Entry file relative to the repository root, e.g. `apps/pool-service/src/main.ts`. */
  entry: string;
  /** Name of the variable that sets the listen port. */
  portVariable: string;
  healthPath: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

/** Runs an app's real entry point as its own process (as operators run it) and waits until it is healthy. */
export async function spawnService(options: SpawnServiceOptions): Promise<SpawnedService> {
  const port = await freePort();
  const child = spawn(process.execPath, repoNodeArgs(options.entry), {
    cwd: REPO_ROOT,
    env: { ...childProcessBaseEnv(), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...options.env, [options.portVariable]: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const polling = new AbortController();
  void exited.then((code) => polling.abort(new ServiceExitedError(options.entry, code, output)));
  try {
    await waitForHttp(`${url}${options.healthPath}`, options.timeoutMs ?? 60_000, { signal: polling.signal });
  } catch (error) {
    child.kill('SIGKILL');
    await exited;
    throw polling.signal.aborted ? polling.signal.reason : error;
  }
  return {
    url,
    child,
    output: () => output,
    stop: (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

export class ServiceExitedError extends Error {
  constructor(entry: string, code: number | null, output: string) {
    super(`${entry} exited (${code}) before it was healthy:\n${output}`);
    this.name = 'ServiceExitedError';
  }
}
