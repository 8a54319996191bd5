import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { Socket, connect } from 'node:net';

/** Sends PING over a raw socket: the launcher needs no Redis client to know whether one answers. */
export function redisAnswers(url: string, timeoutMs = 1000): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket: Socket = connect({ host: hostname || '127.0.0.1', port: Number(port || 6379) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    // A password-protected Redis answers -NOAUTH: it is there, the apps authenticate through the URL.
    socket.once('data', (data) => done(/^\+PONG|^-NOAUTH/.test(data.toString())));
  });
}

export function redisServerInstalled(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/**
 * Starts the stack's Redis on the URL's port with an append-only file in `dir` (the stack's
 * `DATA_DIR/redis`): the dev chain's block 0 and its claim contract (epochs, claims, challenges)
 * live there, so a restarted Redis must come back with them, or a package could be paid twice.
 * The caller stops it.
 */
export async function startRedis(url: string, dir: string): Promise<ChildProcess> {
  const { hostname, port } = new URL(url);
  mkdirSync(dir, { recursive: true });
  const child = spawn(
    'redis-server',
    ['--port', port || '6379', '--bind', hostname || '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes', '--appendfsync', 'everysec', '--daemonize', 'no'],
    { stdio: 'ignore', detached: true },
  );
  // Detached, it would outlive a launcher that exits without its shutdown (an uncaught error).
  const orphaned = () => child.kill('SIGTERM');
  process.once('exit', orphaned);
  child.once('exit', () => process.off('exit', orphaned));
  for (let attempt = 0; attempt < 50; attempt++) {
    if (await redisAnswers(url, 200)) return child;
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGTERM');
  throw new StackError(`redis-server did not answer on ${url}`);
}

export class StackError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StackError';
  }
}
