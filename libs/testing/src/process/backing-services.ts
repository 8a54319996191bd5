import { ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import { childProcessBaseEnv } from '../config';
import { freePort } from '../net/free-port';

/**
 * Private Redis and Postgres servers for fault tests: each on a free port with its data in a temp
 * directory, stopped, crashed and started again at will. Never the machine's shared servers.
 */

export class BackingServiceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackingServiceError';
  }
}

/** Waits until `probe` answers true, polling; a bounded wait on a condition. */
export async function waitUntil(what: string, probe: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new BackingServiceError(`${what}: not within ${timeoutMs} ms`);
    await delay(25);
  }
}

/** Whether something accepts TCP connections on the port. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export interface RedisServer {
  url: string;
  port: number;
  /** Stops the server (SIGTERM) and waits for it to exit; its data is gone (no persistence). */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
  /** Stops it for good and removes its directory. */
  destroy(): Promise<void>;
}

/** A `redis-server` without persistence (`--save '' --appendonly no`): a restart comes back empty. */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'rcs-redis-'));
  let child: ChildProcess | null = null;
  let exited: Promise<void> = Promise.resolve();

  const start = async (): Promise<void> => {
    const started = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
      env: childProcessBaseEnv(),
      stdio: 'ignore',
    });
    child = started;
    exited = new Promise((resolve) => started.once('exit', () => resolve()));
    await waitUntil(`redis-server on port ${port}`, () => listening(port), 10_000);
  };
  const stop = async (): Promise<void> => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    child = null;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    start,
    stop,
    destroy: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface PostgresServer {
  /** URL of the server's `postgres` database (superuser `postgres`, trust). */
  url: string;
  port: number;
  /** URL of another database on this server. */
  databaseUrl(database: string): string;
  /** Creates a database. */
  createDatabase(database: string): Promise<void>;
  /** Crashes it: immediate shutdown, as after a crash the next start recovers from the WAL. */
  crash(): Promise<void>;
  /** Starts it again (after `crash`). */
  start(): Promise<void>;
  /** Stops it for good and removes its data directory. */
  destroy(): Promise<void>;
  /**
   * A streaming replica of it on another free port: `pg_basebackup -R` into a directory beside its
   * own, started as a hot standby (initdb's pg_hba lets loopback replication in with trust).
   */
  startReplica(): Promise<PostgresReplica>;
}

/** A hot standby of a PostgresServer, stopped and started at will; `destroy` of its primary removes it too. */
export interface PostgresReplica {
  port: number;
  /** URL of a database on the replica. */
  databaseUrl(database: string): string;
  /** Stops it (fast shutdown): its clients see connections refused. */
  stop(): Promise<void>;
  /** Starts it again; it catches up from the primary. */
  start(): Promise<void>;
}

/**
 * A Postgres cluster of its own (`initdb`, `pg_ctl`, found on PATH or through `pg_config --bindir`).
 * Postgres refuses to run as root: as root, the cluster runs as the `postgres` user.
 */
export async function startPostgresServer(): Promise<PostgresServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'rcs-pg-'));
  const dataDir = join(dir, 'data');
  const owner = clusterOwner();
  if (owner) {
    chownSync(dir, owner.uid, owner.gid);
    chmodSync(dir, 0o700);
  }
  const run = async (tool: string, args: string[]): Promise<void> => {
    await promisify(execFile)(pgTool(tool), args, { env: childProcessBaseEnv(), cwd: dir, ...(owner ?? {}) });
  };
  await run('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off`;
  const start = (): Promise<void> => run('pg_ctl', ['-D', dataDir, '-o', options, '-l', join(dir, 'log'), '-w', '-t', '60', 'start']);
  const stop = (mode: 'immediate' | 'fast'): Promise<void> => run('pg_ctl', ['-D', dataDir, '-m', mode, '-w', 'stop']);
  await start();
  const url = (database: string): string => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const replicaDirs: string[] = [];
  const startReplica = async (): Promise<PostgresReplica> => {
    const replicaPort = await freePort();
    const replicaDir = join(dir, `replica-${replicaPort}`);
    await run('pg_basebackup', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-D', replicaDir, '-R', '-X', 'stream', '-c', 'fast']);
    replicaDirs.push(replicaDir);
    const replicaOptions = `-p ${replicaPort} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off -c hot_standby=on`;
    const startIt = (): Promise<void> => run('pg_ctl', ['-D', replicaDir, '-o', replicaOptions, '-l', join(dir, `replica-${replicaPort}.log`), '-w', '-t', '60', 'start']);
    await startIt();
    return {
      port: replicaPort,
      databaseUrl: (database) => `postgres://postgres@127.0.0.1:${replicaPort}/${database}`,
      stop: () => run('pg_ctl', ['-D', replicaDir, '-m', 'fast', '-w', 'stop']),
      start: startIt,
    };
  };
  return {
    url: url('postgres'),
    port,
    databaseUrl: url,
    createDatabase: (database) => run('psql', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-c', `CREATE DATABASE "${database}"`]),
    crash: () => stop('immediate'),
    start,
    startReplica,
    destroy: async () => {
      for (const replicaDir of replicaDirs) await run('pg_ctl', ['-D', replicaDir, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      await stop('fast').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function pgTool(tool: string): string {
  try {
    execFileSync('which', [tool], { stdio: 'ignore' });
    return tool;
  } catch {
    return join(execFileSync('pg_config', ['--bindir']).toString().trim(), tool);
  }
}

function clusterOwner(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const id = (flag: string): number => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
  return { uid: id('-u'), gid: id('-g') };
}
