import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { StackError } from './redis';
import { readStackState } from './state';

/** What a launcher's command line contains (`node -r @swc-node/register tools/stack/main.ts`). */
const LAUNCHER_ENTRY = join('tools', 'stack', 'main.ts');

/** The files of one running stack in its DATA_DIR: the state `npm run demo` reads, and the lock naming its process. */
export interface StackFiles {
  dataDir: string;
  /** Every service's URL, the admin token and the launcher's pid (`StackState`), written once the stack is ready. */
  state: string;
  /** The launcher's pid, created exclusively before anything starts. */
  lock: string;
}

export function stackFiles(env: NodeJS.ProcessEnv): StackFiles {
  const dataDir = resolve(env.DATA_DIR ?? '.data');
  return { dataDir, state: join(dataDir, 'stack.json'), lock: join(dataDir, 'stack.pid') };
}

/**
 * Takes the stack's lock, or refuses (touching nothing) when another launcher holds it: a second `npm start` on
 * one DATA_DIR would share its embedded databases, fight for its ports and overwrite its state. A lock left by a
 * launcher that died is taken over. Answers the release function (call it only on the way out).
 */
export function acquireStackLock(files: StackFiles): () => void {
  mkdirSync(files.dataDir, { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(files.lock, 'wx', 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return () => releaseOwn(files);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = lockHolder(files.lock);
    if (holder !== null && processAlive(holder)) throw new StackError(alreadyRunning(files, holder));
    // A stale lock (its launcher is gone, e.g. killed with SIGKILL): take it over.
    rmSync(files.lock, { force: true });
  }
  throw new StackError(`could not take the stack lock ${files.lock}; another npm start is starting at this moment`);
}

/** Removes the lock and the state file, but only while the lock is still this process's own. */
function releaseOwn(files: StackFiles): void {
  if (lockHolder(files.lock) !== process.pid) return;
  rmSync(files.state, { force: true });
  rmSync(files.lock, { force: true });
}

function alreadyRunning(files: StackFiles, pid: number): string {
  const coordinator = readStackState(files.dataDir).coordinator_url;
  return (
    `a stack is already running from ${files.dataDir} (launcher pid ${pid}${coordinator ? `, coordinator at ${coordinator}` : ', still starting'}).\n` +
    `  Use it (npm run demo reads ${files.state}), or stop it first (Ctrl-C in its terminal, or kill ${pid}).\n` +
    '  To run a second stack beside it, give it its own DATA_DIR and ports (COORDINATOR_PORT, POOL_PORT, VALIDATOR_RUNNER_PORT, WEIGHT_SETTER_PORT, PAYOUT_VERIFIER_PORT, WEB_PORT).'
  );
}

function lockHolder(lock: string): number | null {
  if (!existsSync(lock)) return null;
  const pid = Number(readFileSync(lock, 'utf8').trim());
  return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
}

/** Whether `pid` is a live stack launcher (not merely a process that got the pid of a dead one). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists, under another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  let cmdline: string;
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    // No /proc (not Linux): the pid is alive, assume it is the launcher.
    return true;
  }
  return cmdline.includes(LAUNCHER_ENTRY);
}

/** Refuses when something already listens on a port an app of this stack is about to take. */
export async function assertPortsFree(ports: { app: string; variable: string; host: string; port: number }[]): Promise<void> {
  const busy: string[] = [];
  for (const entry of ports) {
    if (await listening(entry.host, entry.port)) busy.push(`${entry.host}:${entry.port} (${entry.app}, ${entry.variable})`);
  }
  if (busy.length > 0) {
    throw new StackError(
      `something already listens on ${busy.join(', ')}: another stack or service runs there.\n` +
        '  Stop it, or give this stack other ports through the variables named.',
    );
  }
}

function listening(host: string, port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ host, port });
    const finish = (answer: boolean) => {
      socket.destroy();
      done(answer);
    };
    socket.setTimeout(1000, () => finish(false));
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}
