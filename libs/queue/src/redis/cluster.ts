import type { RedisOptions } from 'ioredis';
import { InvalidRedisClusterNodesError } from '../errors';

/**
 * How a process reaches a Redis Cluster, as one string every `redisUrl` setting carries:
 * `redis+cluster://[user:password@]host:port,host:port` (`rediss+cluster://` for TLS). The config
 * readers make it from REDIS_CLUSTER_NODES with REDIS_URL's credentials and TLS (`readRedisUrl` of
 * @rcs/config); nobody types it.
 */
const CLUSTER_URL = /^(rediss?)\+cluster:\/\/(?:([^@/]*)@)?([^@/]+)$/;
const NODE = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/;

export interface ClusterTarget {
  nodes: { host: string; port: number }[];
  /** Per node: credentials and TLS from REDIS_URL. */
  redisOptions: RedisOptions;
}

function parseNode(node: string, raw: string): { host: string; port: number } {
  const match = NODE.exec(node.trim());
  const port = match ? Number(match[2]) : 0;
  if (!match || port < 1 || port > 65535) throw new InvalidRedisClusterNodesError(raw);
  return { host: match[1].replace(/^\[(.*)\]$/, '$1'), port };
}

/** The cluster a `redis+cluster://` URL names, or null for a plain REDIS_URL. */
export function clusterTarget(url: string): ClusterTarget | null {
  const match = CLUSTER_URL.exec(url);
  if (!match) return null;
  const [, scheme, auth, nodes] = match;
  const redisOptions: RedisOptions = {};
  if (auth) {
    const [username, ...password] = auth.split(':');
    if (username) redisOptions.username = decodeURIComponent(username);
    if (password.length > 0) redisOptions.password = decodeURIComponent(password.join(':'));
  }
  if (scheme === 'rediss') redisOptions.tls = {};
  return { nodes: nodes.split(',').map((node) => parseNode(node, nodes)), redisOptions };
}

/** Whether `url` names a Redis Cluster. */
export function isClusterUrl(url: string): boolean {
  return CLUSTER_URL.test(url);
}

/**
 * The Redis key prefix of one BullMQ queue: a hash tag of its own (braces included), so a Redis
 * Cluster keeps every key of the queue in one slot while queues spread over the nodes (DECISIONS §19).
 * BullMQ then names the keys `{<base>:<queue>}:<queue>:<suffix>`.
 */
export function queueKeyPrefix(base: string, queue: string): string {
  return `{${base}:${queue}}`;
}
