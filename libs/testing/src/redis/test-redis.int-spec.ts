import { createTestRedis, TestRedis } from './test-redis';

describe('createTestRedis', () => {
  let first: TestRedis;
  let second: TestRedis;

  beforeAll(async () => {
    [first, second] = await Promise.all([createTestRedis(), createTestRedis()]);
  });

  afterAll(async () => {
    await second.cleanup();
  });

  it('gives every caller its own prefix', () => {
    expect(first.prefix).toMatch(/^test-[0-9a-f]{12}$/);
    expect(second.prefix).not.toBe(first.prefix);
  });

  it('cleanup deletes every key under its prefix (across SCAN pages) and nothing else', async () => {
    const pipeline = first.redis.pipeline();
    for (let i = 0; i < 1200; i += 1) pipeline.set(`${first.prefix}:key:${i}`, String(i));
    pipeline.hset(`${first.prefix}:queue:meta`, 'name', 'q');
    await pipeline.exec();
    await second.redis.set(`${second.prefix}:survivor`, '1');

    await first.cleanup();

    const leftover: string[] = [];
    for await (const keys of second.redis.scanStream({ match: `${first.prefix}*`, count: 1000 })) {
      leftover.push(...(keys as string[]));
    }
    expect(leftover).toEqual([]);
    expect(await second.redis.get(`${second.prefix}:survivor`)).toBe('1');
  });
});
