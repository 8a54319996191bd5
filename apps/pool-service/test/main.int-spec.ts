import { expectServiceAnswers, spawnService, SpawnServiceOptions } from '@rcs/testing';

const SERVICE: SpawnServiceOptions = { entry: 'apps/pool-service/src/main.ts', portVariable: 'POOL_PORT', healthPath: '/health' };

describe('pool-service process', () => {
  it('boots from its entry point, serves /health and OpenAPI, and exits 0 on SIGTERM', async () => {
    const service = await spawnService(SERVICE);
    try {
      await expectServiceAnswers(service, 'pool-service', '/health');
    } finally {
      expect(await service.stop()).toBe(0);
    }
  }, 90_000);

  it('refuses a bad configuration with a clear message and exit code 1', async () => {
    await expect(spawnService({ ...SERVICE, env: { LOG_LEVEL: 'loud' } })).rejects.toThrow(/LOG_LEVEL must be one of/);
  }, 90_000);
});
