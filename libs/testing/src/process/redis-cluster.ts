import { ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { childProcessBaseEnv } from '../config';
import { freePort } from '../net/free-port';
import { BackingServiceError, listening, waitUntil } from './backing-services';

/** How long a node may be unreachable before the others mark it failed (and the cluster down, having no replicas). */
const NODE_TIMEOUT_MS = 1000;

export interface RedisClusterNode {
  port: number;
  /** Kills the node's process (SIGKILL, as a crash); its data stays in its append-only file. */
  kill(): Promise<void>;
  /** Starts it again on the same port with its data and cluster config, and waits for the cluster to be whole. */
  start(): Promise<void>;
}

export interface RedisCluster {
  nodes: RedisClusterNode[];
  /** REDIS_CLUSTER_NODES for a service: every node as 127.0.0.1:port. */
  nodesVariable: string;
  /** Resolves once every node reports `cluster_state:ok`. */
  untilHealthy(timeoutMs?: number): Promise<void>;
  /** Resolves once a node that is up reports `cluster_state:fail` (the others noticed a master is gone). */
  untilDown(timeoutMs?: number): Promise<void>;
  /** Stops every node and removes their directories. */
  destroy(): Promise<void>;
}

/** The `cluster_state` a node reports, or null when it does not answer. */
async function clusterState(port: number): Promise<string | null> {
  const client = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const info = await client.cluster('INFO');
    return /cluster_state:(\w+)/.exec(String(info))?.[1] ?? null;
  } catch {
    return null;
  } finally {
    client.disconnect();
  }
}

/**
 * A Redis Cluster of `size` masters and no replicas on loopback, each `redis-server --cluster-enabled
 * yes` on a free port with its data (append-only, fsync always) in a temporary directory, joined with
 * `redis-cli --cluster create`. Only Debian's `redis-server` package is needed (it brings redis-cli).
 */
export async function startRedisCluster(size = 3): Promise<RedisCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'rcs-redis-cluster-'));
  const ports: number[] = [];
  for (let i = 0; i < size; i += 1) ports.push(await freePort());
  const children = new Map<number, { child: ChildProcess; exited: Promise<void> }>();

  const startNode = async (port: number): Promise<void> => {
    const nodeDir = join(dir, String(port));
    mkdirSync(nodeDir, { recursive: true });
    const child = spawn(
      'redis-server',
      [
        '--port', String(port),
        '--bind', '127.0.0.1',
        '--dir', nodeDir,
        '--cluster-enabled', 'yes',
        '--cluster-config-file', 'nodes.conf',
        '--cluster-node-timeout', String(NODE_TIMEOUT_MS),
        '--save', '',
        '--appendonly', 'yes',
        '--appendfsync', 'always',
      ],
      { env: childProcessBaseEnv(), stdio: 'ignore' },
    );
    children.set(port, { child, exited: new Promise((resolve) => child.once('exit', () => resolve())) });
    await waitUntil(`redis-server (cluster node) on port ${port}`, () => listening(port), 10_000);
  };
  const killNode = async (port: number): Promise<void> => {
    const running = children.get(port);
    if (!running) return;
    if (running.child.exitCode === null && running.child.signalCode === null) running.child.kill('SIGKILL');
    await running.exited;
    children.delete(port);
  };
  const untilState = (state: string, timeoutMs: number, which: 'every' | 'some'): Promise<void> =>
    waitUntil(
      `Redis Cluster ${state}`,
      async () => {
        const states = await Promise.all([...children.keys()].map((port) => clusterState(port)));
        return which === 'every' ? ports.every((port, i) => children.has(port) && states[i] === state) : states.some((s) => s === state);
      },
      timeoutMs,
    );

  try {
    await Promise.all(ports.map((port) => startNode(port)));
    await promisify(execFile)(
      'redis-cli',
      ['--cluster', 'create', ...ports.map((port) => `127.0.0.1:${port}`), '--cluster-replicas', '0', '--cluster-yes'],
      { env: childProcessBaseEnv() },
    ).catch((error: Error & { stdout?: string }) => {
      throw new BackingServiceError(`redis-cli --cluster create failed: ${error.message}\n${error.stdout ?? ''}`);
    });
    await untilState('ok', 30_000, 'every');
  } catch (error) {
    await Promise.all(ports.map((port) => killNode(port)));
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }

  const untilHealthy = (timeoutMs = 30_000): Promise<void> => untilState('ok', timeoutMs, 'every');
  return {
    nodes: ports.map((port) => ({
      port,
      kill: () => killNode(port),
      start: async () => {
        await startNode(port);
        await untilHealthy();
      },
    })),
    nodesVariable: ports.map((port) => `127.0.0.1:${port}`).join(','),
    untilHealthy,
    untilDown: (timeoutMs = 30_000) => untilState('fail', timeoutMs, 'some'),
    destroy: async () => {
      await Promise.all(ports.map((port) => killNode(port)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
