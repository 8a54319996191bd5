import { createScratchDatabase, createTestRedis, spawnService, type SpawnedService } from '@rcs/testing';
import { sharedGenesisKey } from '@rcs/chain';

export interface RunningPool {
  service: SpawnedService;
  url: string;
  /** The chain variables that reach the same dev chain and claim contract as the pool (its Redis and prefix, block time). */
  chainEnv: Record<string, string>;
  stop(): Promise<void>;
}

const BLOCK_MS = 1000;
const WINDOW_BLOCKS = 600;

/**
 * The pool's real entry point on its own database and Redis prefix, on the dev chain, publishing epochs on the dev
 * claim contract as //Alice with claims open at once. The dev chain's shared genesis is set two windows and a few
 * blocks back: the window that had ended at start (1) is the pool's first epoch, and the next ends ten minutes on,
 * after the test. The epoch check runs every second; it stores nothing while the coordinator has no snapshot.
 */
export async function startPoolProcess(options: { coordinatorUrl: string; budgetRao: bigint }): Promise<RunningPool> {
  const [db, redis] = await Promise.all([createScratchDatabase('cli_pool'), createTestRedis()]);
  await redis.redis.set(sharedGenesisKey(redis.prefix), String(Date.now() - (2 * WINDOW_BLOCKS + 5) * BLOCK_MS));
  const chainEnv = { CHAIN: 'dev', NETUID: '1', REDIS_URL: redis.url, REDIS_KEY_PREFIX: redis.prefix, DEV_CHAIN_BLOCK_TIME_MS: String(BLOCK_MS), DEV_CLAIM_CHALLENGE_BLOCKS: '0' };
  const service = await spawnService({
    entry: 'apps/pool-service/src/main.ts',
    portVariable: 'POOL_PORT',
    healthPath: '/healthz',
    timeoutMs: 120_000,
    env: {
      ...chainEnv,
      POOL_DATABASE_URL: db.url,
      COORDINATOR_URL: options.coordinatorUrl,
      POOL_STAKE_CHECK: 'off',
      PUBLISHER_SECRET_URI: '//Alice',
      POOL_EPOCH_BUDGET_UNITS: options.budgetRao.toString(),
      POOL_SNAPSHOT_ATTEMPTS: '1',
      POOL_EPOCH_CHECK_SECONDS: '1',
      SCHEDULE_CHECK_INTERVAL_SECONDS: '1',
      POOL_WINDOW_BLOCKS: String(WINDOW_BLOCKS),
    },
  });
  return {
    service,
    url: service.url,
    chainEnv,
    stop: async () => {
      await service.stop();
      await redis.cleanup();
      await db.drop();
    },
  };
}
