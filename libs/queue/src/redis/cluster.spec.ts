import { clusterTarget, isClusterUrl, queueKeyPrefix } from './cluster';

describe('Redis Cluster connection strings and hash tags', () => {
  it('reads the nodes, credentials and TLS of a cluster URL, and nothing of a plain one', () => {
    expect(clusterTarget('redis://127.0.0.1:6379')).toBeNull();
    expect(isClusterUrl('redis://127.0.0.1:6379')).toBe(false);
    expect(clusterTarget('rediss+cluster://app:s%40cret@n1.example:7000,[::1]:7002')).toEqual({
      nodes: [
        { host: 'n1.example', port: 7000 },
        { host: '::1', port: 7002 },
      ],
      redisOptions: { username: 'app', password: 's@cret', tls: {} },
    });
    expect(clusterTarget('redis+cluster://127.0.0.1:7000')).toEqual({ nodes: [{ host: '127.0.0.1', port: 7000 }], redisOptions: {} });
  });

  it('gives each queue a hash tag of its own', () => {
    expect(queueKeyPrefix('rcs:coordinator', 'coordinator.rewards')).toBe('{rcs:coordinator:coordinator.rewards}');
  });
});
