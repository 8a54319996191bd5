import { Logger } from '@nestjs/common';
import type { ConnectionOptions } from 'bullmq';
import { Cluster, Redis, RedisOptions } from 'ioredis';
import { InvalidRedisUrlError } from '../errors';
import { clusterTarget } from './cluster';

/** `redis://[user:password@]host[:port][/db]` (or `rediss://` for TLS) as ioredis options. */
export function redisOptionsFromUrl(url: string): RedisOptions {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidRedisUrlError(url);
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') throw new InvalidRedisUrlError(url);
  const db = parsed.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d+$/.test(db)) throw new InvalidRedisUrlError(url);
  const options: RedisOptions = {
    host: parsed.hostname.replace(/^\[(.*)\]$/, '$1') || '127.0.0.1',
    port: parsed.port ? Number(parsed.port) : 6379,
  };
  if (parsed.username) options.username = decodeURIComponent(parsed.username);
  if (parsed.password) options.password = decodeURIComponent(parsed.password);
  if (db !== '') options.db = Number(db);
  if (parsed.protocol === 'rediss:') options.tls = { servername: parsed.hostname };
  return options;
}

/**
 * What a BullMQ queue, worker or listener connects with: options for one server (BullMQ opens and
 * closes its own connection), or a Cluster of its own, which BullMQ treats as shared and never
 * closes: pass it to `releaseBullmqConnection` after the BullMQ object's close.
 */
export function bullmqConnection(url: string): ConnectionOptions {
  const cluster = clusterTarget(url);
  if (cluster === null) return redisOptionsFromUrl(url);
  // BullMQ's blocking commands need maxRetriesPerRequest null on every node connection.
  return new Cluster(cluster.nodes, { redisOptions: { ...cluster.redisOptions, maxRetriesPerRequest: null } });
}

/** Closes a connection `bullmqConnection` opened for a cluster; nothing for one server's options. */
export function releaseBullmqConnection(connection: ConnectionOptions): void {
  if (connection instanceof Cluster) connection.disconnect();
}

export interface CreateRedisOptions {
  /** BullMQ workers block on Redis and require `maxRetriesPerRequest: null`. */
  forBullmq?: boolean;
  /** Shows in `CLIENT LIST`. */
  connectionName?: string;
  /**
   * For request paths: while disconnected a command fails at once instead of queueing until Redis
   * returns, a command in flight when the connection drops fails instead of being retried, and a
   * command without an answer fails after `REQUEST_COMMAND_TIMEOUT_MS` (see `isRedisUnavailable`).
   */
  failFast?: boolean;
}

/** Bound on one command of a fail-fast client: a Redis that accepts connections but does not answer. */
export const REQUEST_COMMAND_TIMEOUT_MS = 2000;

const logger = new Logger('Redis');

/**
 * An ioredis client whose connection errors go to the app log (ioredis reconnects by itself). `url` is
 * a REDIS_URL, or the cluster form `redisConnectionUrl` makes of REDIS_CLUSTER_NODES: then the client
 * is an ioredis `Cluster`, typed as `Redis` because it answers the same commands (every multi-key
 * command of its callers keeps its keys inside one hash tag, DECISIONS §19).
 */
export function createRedis(url: string, options: CreateRedisOptions = {}): Redis {
  const clientOptions: RedisOptions = {
    connectionName: options.connectionName,
    ...(options.forBullmq ? { maxRetriesPerRequest: null } : {}),
    ...(options.failFast ? { enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: REQUEST_COMMAND_TIMEOUT_MS } : {}),
  };
  const cluster = clusterTarget(url);
  const redis =
    cluster === null
      ? new Redis({ ...redisOptionsFromUrl(url), ...clientOptions })
      : (new Cluster(cluster.nodes, {
          redisOptions: { ...cluster.redisOptions, ...clientOptions },
          ...(options.failFast ? { enableOfflineQueue: false } : {}),
        }) as unknown as Redis);
  redis.on('error', (error: Error) => logger.warn(`${options.connectionName ?? 'redis'}: ${error.message}`));
  return redis;
}

/**
 * A second client like `redis` with `overrides` (a blocking reader needs its own connection), for one
 * server or a cluster alike; its connection name is `redis`'s followed by `:<suffix>`.
 */
export function duplicateRedis(redis: Redis, suffix: string, overrides: RedisOptions): Redis {
  const client: unknown = redis;
  if (client instanceof Cluster) {
    const redisOptions = client.options.redisOptions ?? {};
    const connectionName = `${redisOptions.connectionName ?? 'redis'}:${suffix}`;
    return client.duplicate([], {
      redisOptions: { ...redisOptions, ...overrides, connectionName },
      ...(overrides.enableOfflineQueue === undefined ? {} : { enableOfflineQueue: overrides.enableOfflineQueue }),
    }) as unknown as Redis;
  }
  return redis.duplicate({ ...overrides, connectionName: `${redis.options.connectionName ?? 'redis'}:${suffix}` });
}

/**
 * Resolves once the client is ready or `timeoutMs` has passed, whichever comes first; never rejects.
 * A fail-fast client refuses commands until it is ready, so a service waits for this at boot.
 */
export function untilReady(redis: Redis, timeoutMs: number): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ready: boolean): void => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      resolve(ready);
    };
    const onReady = (): void => done(true);
    const timer = setTimeout(() => done(false), timeoutMs);
    redis.on('ready', onReady);
  });
}

export interface RedisReadiness {
  ok: boolean;
  error?: string;
}

/** What `redisReady` pings: an ioredis client, or one still being connected (a BullMQ queue's `client`). */
export interface Pingable {
  ping(): Promise<string>;
}

/** PING with a deadline, for /readyz. */
export async function redisReady(redis: Pingable | Promise<Pingable>, timeoutMs = 1000): Promise<RedisReadiness> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<RedisReadiness>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, error: `no answer within ${timeoutMs} ms` }), timeoutMs);
  });
  const ping = Promise.resolve(redis)
    .then((client) => client.ping())
    .then(
      (reply): RedisReadiness => (reply === 'PONG' ? { ok: true } : { ok: false, error: `unexpected reply ${reply}` }),
      (error: unknown): RedisReadiness => ({ ok: false, error: error instanceof Error ? error.message : String(error) }),
    );
  try {
    return await Promise.race([ping, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Quits politely when connected; otherwise stops reconnecting at once, so shutdown never waits on a dead Redis. */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'ready') {
    await redis.quit().catch(() => redis.disconnect());
  } else {
    redis.disconnect();
  }
}
