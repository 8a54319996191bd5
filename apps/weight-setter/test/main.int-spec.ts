import { createTestRedis, expectServiceAnswers, freePort, spawnService, SpawnServiceOptions, TestRedis, until } from '@rcs/testing';

const SERVICE: SpawnServiceOptions = { entry: 'apps/weight-setter/src/main.ts', portVariable: 'WEIGHT_SETTER_PORT', healthPath: '/healthz' };
// A dev chain, the dev key, a coordinator that is not there (passes fail; the process still serves).
let DEV: NodeJS.ProcessEnv = {};

describe('weight-setter process', () => {
  let redis: TestRedis;

  beforeAll(async () => {
    redis = await createTestRedis();
    DEV = { CHAIN: 'dev', NETUID: '1', VALIDATOR_SECRET_URI: '//Alice', REDIS_URL: redis.url, REDIS_KEY_PREFIX: redis.prefix, COORDINATOR_URL: 'http://127.0.0.1:9' };
  });

  afterAll(() => redis.cleanup());

  it('boots from its entry point, serves /healthz and OpenAPI, and exits 0 on SIGTERM', async () => {
    const service = await spawnService({ ...SERVICE, env: DEV });
    try {
      await expectServiceAnswers(service, 'weight-setter', '/healthz', { status: '/status' });
    } finally {
      expect(await service.stop()).toBe(0);
    }
  }, 90_000);

  it('refuses a bad configuration with a clear message and exit code 1', async () => {
    await expect(spawnService({ ...SERVICE, env: { ...DEV, LOG_LEVEL: 'loud' } })).rejects.toThrow(/LOG_LEVEL must be one of/);
    await expect(spawnService({ ...SERVICE, env: { ...DEV, VALIDATOR_SECRET_URI: '' } })).rejects.toThrow(/no validator identity/);
    await expect(spawnService({ ...SERVICE, env: { ...DEV, WEIGHTS_INTERVAL_SECONDS: '0' } })).rejects.toThrow(/WEIGHTS_INTERVAL_SECONDS must be an integer from 1/);
  }, 90_000);

  it('while the coordinator is still starting says so in one INFO line, and its passes\' last attempts log no WARN', async () => {
    // One attempt per pass: each pass's failure is its job's last one, which the queue warned about.
    const env = { ...DEV, COORDINATOR_URL: `http://127.0.0.1:${await freePort()}`, WEIGHTS_INTERVAL_SECONDS: '1', WEIGHTS_ATTEMPTS: '1', LOG_LEVEL: 'debug', LOG_FORMAT: 'pretty' };
    const service = await spawnService({ ...SERVICE, env });
    try {
      const lines = (): string[] => service.output().split('\n');
      await until('a second pass waiting for the coordinator', () => Promise.resolve(lines().filter((line) => line.includes('coordinator still unreachable')).length), (n) => n >= 2);
      expect(lines().filter((line) => line.includes('waiting for the coordinator'))).toEqual([expect.stringMatching(/ INFO /)]);
      expect(lines().filter((line) => / (WARN|ERROR) /.test(line))).toEqual([]);
    } finally {
      expect(await service.stop()).toBe(0);
    }
  }, 90_000);
});
