/**
 * Whether an error means Redis cannot serve commands right now (disconnected, reconnecting, closed,
 * timed out, still loading its data), as opposed to a command refused on its merits. Requests that
 * hit one answer 503 `redis_unavailable` instead of hanging or 500 (DECISIONS.md §1).
 */
export function isRedisUnavailable(error: unknown): boolean {
  // Duck-typed, not `instanceof Error`: errors may come from another realm (test sandboxes).
  if (typeof error !== 'object' || error === null) return false;
  const { name, message } = error as { name?: unknown; message?: unknown };
  if (name === 'MaxRetriesPerRequestError' || name === 'RedisUnavailableError') return true;
  return typeof message === 'string' && REDIS_MESSAGES.some((prefix) => message.startsWith(prefix));
}

/** Raised by our own code when it will not wait for Redis (e.g. a queue whose connection is down). */
export class RedisUnavailableError extends Error {
  constructor(what: string) {
    super(`Redis is unavailable: ${what}`);
    this.name = 'RedisUnavailableError';
  }
}

// ioredis raises the first three (offline queue off, connection lost, commandTimeout) and, in cluster
// mode, the next five (no node reachable, a slot's master gone); the others are replies of a Redis
// that is loading its data, has no primary, or is a cluster missing a slot.
const REDIS_MESSAGES = [
  "Stream isn't writeable and enableOfflineQueue options is false",
  'Connection is closed.',
  'Command timed out',
  "Cluster isn't ready and enableOfflineQueue options is false",
  'Cluster is disconnected.',
  'None of startup nodes is available',
  'Node is disconnected',
  'Too many Cluster redirections.',
  'LOADING ',
  'MASTERDOWN ',
  'TRYAGAIN ',
  'CLUSTERDOWN ',
];
