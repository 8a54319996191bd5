import type { EnvReader } from './env-reader';

const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';
const NODE = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/;

/**
 * The Redis a process connects to: REDIS_URL (one server, the default), or, when
 * REDIS_CLUSTER_NODES (comma-separated host:port) is set, the Redis Cluster those nodes seed, written
 * `redis+cluster://[user:password@]host:port,…` with REDIS_URL's user, password and TLS
 * (`rediss+cluster://`). Every Redis client of the service then runs in cluster mode (DECISIONS §19).
 * A malformed value is a problem of `read`, reported with the others.
 */
export function readRedisUrl(read: EnvReader): string {
  const redisUrl = read.string('REDIS_URL', DEFAULT_REDIS_URL);
  const clusterNodes = read.list('REDIS_CLUSTER_NODES');
  if (clusterNodes.length === 0) return redisUrl;
  const bad = clusterNodes.filter((node) => {
    const match = NODE.exec(node);
    return !match || Number(match[2]) < 1 || Number(match[2]) > 65535;
  });
  if (bad.length > 0) {
    read.problems.push(`REDIS_CLUSTER_NODES must be comma-separated host:port pairs, got ${JSON.stringify(bad.join(','))}`);
    return redisUrl;
  }
  let parsed: URL | null = null;
  try {
    parsed = new URL(redisUrl);
  } catch {
    parsed = null;
  }
  if (parsed === null || (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:')) {
    read.problems.push('REDIS_URL must be a redis:// or rediss:// URL (with REDIS_CLUSTER_NODES it gives the nodes\' credentials and TLS)');
    return redisUrl;
  }
  const auth = parsed.username || parsed.password ? `${parsed.username}${parsed.password ? `:${parsed.password}` : ''}@` : '';
  return `${parsed.protocol.slice(0, -1)}+cluster://${auth}${clusterNodes.join(',')}`;
}
