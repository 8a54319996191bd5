import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { testRedisUrl } from '../config';

export interface TestRedis {
  redis: Redis;
  url: string;
  /** Unique per call; every key the test writes must start with it (BullMQ: pass it as `prefix`). */
  prefix: string;
  /** Deletes every key under the prefix, then disconnects. */
  cleanup(): Promise<void>;
}

/** Deletes every key that starts with `prefix`, or with `{prefix` (a hash tag made of it: queues, nonces, the dev chain). */
export async function deleteKeysWithPrefix(redis: Redis, prefix: string): Promise<number> {
  let deleted = 0;
  for (const pattern of [`${prefix}*`, `{${prefix}*`]) {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      if (keys.length > 0) deleted += await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  }
  return deleted;
}

export async function createTestRedis(): Promise<TestRedis> {
  const url = testRedisUrl();
  // Fixed-length random part: no prefix can be the start of another one.
  const prefix = `test-${randomBytes(6).toString('hex')}`;
  const redis = new Redis(url, { lazyConnect: true });
  await redis.connect();
  return {
    redis,
    url,
    prefix,
    cleanup: async () => {
      await deleteKeysWithPrefix(redis, prefix);
      await redis.quit();
    },
  };
}
