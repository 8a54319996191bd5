import { createTestRedis, suiteResource, TestRedis } from '@rcs/testing';
import { createRedis, redisReady } from './redis';

describe('createRedis / redisReady', () => {
  let testRedis: TestRedis;

  suiteResource(() => createTestRedis(), (resource) => resource.cleanup(), (made) => (testRedis = made));

  it('is ready against a live server, and BullMQ connections never give up on a request', async () => {
    const redis = createRedis(testRedis.url, { forBullmq: true, connectionName: 'queue-int-spec' });
    try {
      expect(await redisReady(redis)).toEqual({ ok: true });
      expect(redis.options.maxRetriesPerRequest).toBeNull();
      expect(await redis.client('GETNAME')).toBe('queue-int-spec');
    } finally {
      await redis.quit();
    }
  });

  it('answers not ready within the timeout when the server does not reply', async () => {
    const redis = createRedis(testRedis.url);
    // A BLPOP on a key nobody pushes to holds the connection, so the PING queues behind it like behind a wedged server.
    const blocked = redis.blpop(`${testRedis.prefix}:never`, 0).catch((error: Error) => error.message);
    try {
      expect(await redisReady(redis, 100)).toEqual({ ok: false, error: 'no answer within 100 ms' });
    } finally {
      redis.disconnect();
    }
    expect(await blocked).toBe('Connection is closed.');
  });

  it('answers not ready once the client is closed', async () => {
    const redis = createRedis(testRedis.url);
    await redis.quit();
    expect(await redisReady(redis)).toEqual({ ok: false, error: 'Connection is closed.' });
  });
});
