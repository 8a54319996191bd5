import { randomBytes } from 'node:crypto';
import { createScratchDatabase, createTestRedis, devCoordinatorEnv, spawnService, type SpawnedService } from '@rcs/testing';

export interface RunningCoordinator {
  service: SpawnedService;
  url: string;
  adminToken: string;
  stop(): Promise<void>;
}

/** The coordinator's real entry point on this file's own database and Redis prefix, on the dev chain (stake check off). */
export async function startCoordinator(validatorHotkey: string): Promise<RunningCoordinator> {
  const [db, redis] = await Promise.all([createScratchDatabase('cli_e2e'), createTestRedis()]);
  const adminToken = randomBytes(16).toString('hex');
  const service = await spawnService({
    entry: 'apps/coordinator-api/src/main.ts',
    portVariable: 'COORDINATOR_PORT',
    healthPath: '/healthz',
    timeoutMs: 120_000,
    env: { ...devCoordinatorEnv(db.url, redis), ADMIN_TOKENS: adminToken, VALIDATOR_HOTKEYS: validatorHotkey },
  });
  return {
    service,
    url: service.url,
    adminToken,
    stop: async () => {
      await service.stop();
      await redis.cleanup();
      await db.drop();
    },
  };
}
