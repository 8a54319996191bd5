import { Redis } from 'ioredis';

/** A client of the machine's real Redis (the spec passes `process.env.REDIS_URL`). */
export function testRedis(url = 'redis://127.0.0.1:6379'): Redis {
  return new Redis(url, { maxRetriesPerRequest: 1 });
}

/** A key prefix no other test file or run shares. */
export function uniquePrefix(file: string): string {
  return `test:auth:${file}:${process.pid}:${Date.now()}:`;
}

/** Deletes every key under `prefix`. */
export async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  const keys: string[] = [];
  for await (const batch of redis.scanStream({ match: `${prefix}*`, count: 500 })) keys.push(...(batch as string[]));
  if (keys.length > 0) await redis.del(...keys);
}
