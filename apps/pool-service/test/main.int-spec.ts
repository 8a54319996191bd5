import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BtAuthSigner, keypairFromUri } from '@rcs/auth';
import { createTestRedis, expectServiceAnswers, spawnService, SpawnServiceOptions, TestDatabase, TestRedis } from '@rcs/testing';
import { createPoolTestDatabase, poolStoresEnv } from './support/harness';

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

  it('boots from its entry point, serves /healthz, /readyz, /health and OpenAPI, and exits 0 on SIGTERM', async () => {
    const service = await spawnService({
      ...SERVICE,
      env: { ...poolStoresEnv(db, redis), CHAIN: 'dev', NETUID: '1' },
    });
    try {
      await expectServiceAnswers(service, 'pool-service', '/healthz', { status: '/status', leaderboard: '/api/v1/miners/leaderboard' });
      const health = (await (await fetch(`${service.url}/health`)).json()) as { status: string };
      expect(health.status).toBe('healthy');
      const ready = await fetch(`${service.url}/readyz`);
      expect([ready.status, ((await ready.json()) as { status: string }).status]).toEqual([200, 'ready']);
    } finally {
      expect(await service.stop()).toBe(0);
    }
  }, 90_000);

  it('runs on the embedded Postgres under DATA_DIR/pool when POOL_DATABASE_URL is unset, seeds included', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pool-embedded-'));
    const service = await spawnService({
      ...SERVICE,
      timeoutMs: 120_000,
      env: { DATA_DIR: dataDir, REDIS_URL: redis.url, REDIS_KEY_PREFIX: redis.prefix, CHAIN: 'dev', NETUID: '1', POOL_STAKE_CHECK: 'off', POOL_SEED_FILE: 'apps/pool-service/seeds/cifar10_binary.json' },
    });
    try {
      const miner = new BtAuthSigner(await keypairFromUri('//Pool//embedded'));
      const batch = await fetch(`${service.url}/api/v1/tasks/request`, {
        method: 'POST',
        headers: { ...miner.signPool(), 'content-type': 'application/json' },
        body: JSON.stringify({ task_type: 'evaluate' }),
      });
      expect(batch.status).toBe(200);
      expect(((await batch.json()) as { algorithms: unknown[] }).algorithms).toHaveLength(4);
    } finally {
      expect(await service.stop()).toBe(0);
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 150_000);

  it('refuses a bad configuration with a clear message and exit code 1', async () => {
    await expect(spawnService({ ...SERVICE, env: { LOG_LEVEL: 'loud', NETUID: '1', POOL_CONSENSUS_K: '9', POOL_MAX_EVALUATIONS: '3' } })).rejects.toThrow(
      /POOL_MAX_EVALUATIONS must be at least POOL_CONSENSUS_K[\s\S]*LOG_LEVEL must be one of/,
    );
  }, 90_000);
});
