import { createTestRedis, expectServiceAnswers, spawnService, SpawnServiceOptions, TestDatabase, TestRedis } from '@rcs/testing';
import { createPoolTestDatabase } from './support/harness';

const SERVICE: SpawnServiceOptions = { entry: 'apps/pool-service/src/main.ts', portVariable: 'POOL_PORT', healthPath: '/healthz' };

describe('pool-service process', () => {
  let db: TestDatabase;
  let redis: TestRedis;

  beforeAll(async () => {
    [db, redis] = await Promise.all([createPoolTestDatabase(), createTestRedis()]);
  });

  afterAll(async () => {
    await redis.cleanup();
    await db.drop();
  });

  it('boots from its entry point, serves /healthz, /health and OpenAPI, and exits 0 on SIGTERM', async () => {
    const service = await spawnService({
      ...SERVICE,
      env: { POOL_DATABASE_URL: db.url, REDIS_URL: redis.url, REDIS_KEY_PREFIX: redis.prefix, CHAIN: 'dev', NETUID: '1' },
    });
    try {
      await expectServiceAnswers(service, 'pool-service', '/healthz');
      const health = (await (await fetch(`${service.url}/health`)).json()) as { status: string };
      expect(health.status).toBe('healthy');
    } finally {
      expect(await service.stop()).toBe(0);
    }
  }, 90_000);

  it('refuses a bad configuration with a clear message and exit code 1', async () => {
    await expect(spawnService({ ...SERVICE, env: { LOG_LEVEL: 'loud', NETUID: '1', POOL_CONSENSUS_K: '9', POOL_MAX_EVALUATIONS: '3' } })).rejects.toThrow(
      /POOL_MAX_EVALUATIONS must be at least POOL_CONSENSUS_K[\s\S]*LOG_LEVEL must be one of/,
    );
  }, 90_000);
});
