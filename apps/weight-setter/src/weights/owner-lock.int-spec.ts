import { createTestRedis, type TestRedis } from '@rcs/testing';
import { OwnerLock } from './owner-lock';

describe('OwnerLock (real Redis)', () => {
  let redis: TestRedis;
  let key: string;

  beforeAll(async () => {
    redis = await createTestRedis();
    key = OwnerLock.keyFor(redis.prefix, '5Hotkey');
  });

  afterAll(() => redis.cleanup());

  it('gives the lock to one process at a time, with fencing tokens that only grow', async () => {
    const first = new OwnerLock(redis.redis, key, 60_000);
    const second = new OwnerLock(redis.redis, key, 60_000);

    const token = await first.tryAcquire();
    expect(token).not.toBeNull();
    expect(await second.tryAcquire()).toBeNull();
    expect(second.token).toBeNull();
    expect(await first.renew()).toBe(true);
    expect(await first.holds(token as number)).toBe(true);

    await first.release();
    expect(await redis.redis.get(key)).toBeNull();
    const next = await second.tryAcquire();
    expect(next).toBeGreaterThan(token as number);
    expect(await first.holds(token as number)).toBe(false);
  });

  it('a lapsed owner cannot renew, release or pass the fencing check once another holds the lock', async () => {
    await redis.redis.del(key);
    const stalled = new OwnerLock(redis.redis, key, 60_000);
    const token = (await stalled.tryAcquire()) as number;
    // The TTL ran out while the owner stalled, and a standby took over.
    await redis.redis.del(key);
    const standby = new OwnerLock(redis.redis, key, 60_000);
    const newToken = (await standby.tryAcquire()) as number;

    expect(await stalled.holds(token)).toBe(false);
    expect(await stalled.renew()).toBe(false);
    expect(stalled.token).toBeNull();
    await stalled.release();
    expect(await redis.redis.get(key)).toBe(String(newToken));
    expect(await standby.renew()).toBe(true);
  });

  it('expires when not renewed', async () => {
    await redis.redis.del(key);
    const owner = new OwnerLock(redis.redis, key, 1_000);
    await owner.tryAcquire();
    const ttl = await redis.redis.pttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(1_000);
  });
});
