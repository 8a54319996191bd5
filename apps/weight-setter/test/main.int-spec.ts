import { spawnService } from '@rcs/testing';

describe('weight-setter process', () => {
  it('boots from its entry point, serves /healthz and OpenAPI, and exits 0 on SIGTERM', async () => {
    const service = await spawnService({ entry: 'apps/weight-setter/src/main.ts', portVariable: 'WEIGHT_SETTER_PORT', healthPath: '/healthz' });
    try {
      const health = (await (await fetch(`${service.url}/healthz`)).json()) as Record<string, string>;
      expect(health).toEqual({ status: 'ok', service: 'weight-setter', version: '0.1.0' });
      const openapi = (await (await fetch(`${service.url}/openapi.json`)).json()) as { info: { version: string } };
      expect(openapi.info.version).toBe('0.1.0');
    } finally {
      expect(await service.stop()).toBe(0);
    }
  }, 90_000);

  it('refuses a bad configuration with a clear message and exit code 1', async () => {
    await expect(
      spawnService({ entry: 'apps/weight-setter/src/main.ts', portVariable: 'WEIGHT_SETTER_PORT', healthPath: '/healthz', env: { LOG_LEVEL: 'loud' } }),
    ).rejects.toThrow(/LOG_LEVEL must be one of/);
  }, 90_000);
});
