import { Logger } from '@nestjs/common';
import { Redis, RedisOptions } from 'ioredis';
import { InvalidRedisUrlError } from '../errors';

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

/** An ioredis client whose connection errors go to the app log (ioredis reconnects by itself). */
export function createRedis(url: string, options: CreateRedisOptions = {}): Redis {
  const redis = new Redis({
    ...redisOptionsFromUrl(url),
    connectionName: options.connectionName,
    ...(options.forBullmq ? { maxRetriesPerRequest: null } : {}),
    ...(options.failFast ? { enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: REQUEST_COMMAND_TIMEOUT_MS } : {}),
  });
  redis.on('error', (error: Error) => logger.warn(`${options.connectionName ?? 'redis'}: ${error.message}`));
  return redis;
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
