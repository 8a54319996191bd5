import { spawnService } from '@rcs/testing';

describe('pool-service process', () => {
  it('boots from its entry point, serves /health and OpenAPI, and exits 0 on SIGTERM', async () => {
    const service = await spawnService({ entry: 'apps/pool-service/src/main.ts', portVariable: 'POOL_PORT', healthPath: '/health' });
    try {
      const health = (await (await fetch(`${service.url}/health`)).json()) as Record<string, string>;
      expect(health).toEqual({ status: 'ok', service: 'pool-service', version: '0.1.0' });
      const openapi = (await (await fetch(`${service.url}/openapi.json`)).json()) as { info: { version: string } };
      expect(openapi.info.version).toBe('0.1.0');
    } finally {
      expect(await service.stop()).toBe(0);
    }
  }, 90_000);

  it('refuses a bad configuration with a clear message and exit code 1', async () => {
    await expect(
      spawnService({ entry: 'apps/pool-service/src/main.ts', portVariable: 'POOL_PORT', healthPath: '/health', env: { LOG_LEVEL: 'loud' } }),
    ).rejects.toThrow(/LOG_LEVEL must be one of/);
  }, 90_000);
});
