import { EnvReader } from './env-reader';
import { readRedisUrl } from './redis-url';

describe('readRedisUrl', () => {
  it('is REDIS_URL, or its default, without REDIS_CLUSTER_NODES', () => {
    expect(readRedisUrl(new EnvReader({}))).toBe('redis://127.0.0.1:6379');
    expect(readRedisUrl(new EnvReader({ REDIS_URL: 'rediss://u:p@redis.example:6380/2' }))).toBe('rediss://u:p@redis.example:6380/2');
  });

  it("names the cluster's seed nodes with REDIS_URL's credentials and TLS", () => {
    const read = new EnvReader({ REDIS_URL: 'rediss://app:s%40cret@ignored:6379', REDIS_CLUSTER_NODES: 'n1.example:7000, 10.0.0.2:7001,[::1]:7002' });
    expect(readRedisUrl(read)).toBe('rediss+cluster://app:s%40cret@n1.example:7000,10.0.0.2:7001,[::1]:7002');
    expect(read.problems).toEqual([]);
  });

  it('reports a malformed node list as a configuration problem', () => {
    const read = new EnvReader({ REDIS_CLUSTER_NODES: 'n1.example:7000,n2.example,n3:99999' });
    readRedisUrl(read);
    expect(read.problems).toEqual(['REDIS_CLUSTER_NODES must be comma-separated host:port pairs, got "n2.example,n3:99999"']);
  });
});
