import { createTestRedis, expectServiceAnswers, spawnService, SpawnServiceOptions, suiteTempDir, TestRedis } from '@rcs/testing';

// Its first boot migrates an embedded database: slow on a loaded machine.
const SERVICE: SpawnServiceOptions = { entry: 'apps/payout-verifier/src/main.ts', portVariable: 'PAYOUT_VERIFIER_PORT', healthPath: '/healthz', timeoutMs: 180_000 };
// A dev chain, the dev key, its embedded database in a folder of this suite, no pool or coordinator (passes find nothing published).
let DEV: NodeJS.ProcessEnv = {};

describe('payout-verifier process', () => {
  let redis: TestRedis;
  let dataDir = '';
  suiteTempDir('payout-verifier-main', (path) => (dataDir = path));

  beforeAll(async () => {
    redis = await createTestRedis();
    DEV = {
      CHAIN: 'dev',
      NETUID: '1',
      VALIDATOR_SECRET_URI: '//Alice',
      REDIS_URL: redis.url,
      REDIS_KEY_PREFIX: redis.prefix,
      COORDINATOR_URL: 'http://127.0.0.1:9',
      POOL_URL: 'http://127.0.0.1:9',
      DATA_DIR: dataDir,
    };
  });

  afterAll(() => redis.cleanup());

  it('boots from its entry point on its embedded database, serves /healthz and OpenAPI, and exits 0 on SIGTERM', async () => {
    const service = await spawnService({ ...SERVICE, env: DEV });
    try {
      await expectServiceAnswers(service, 'payout-verifier', '/healthz', { status: '/status' });
      const status = (await (await fetch(`${service.url}/status`)).json()) as { verifier: string; bootstrap: string };
      expect(status).toMatchObject({ verifier: '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY', bootstrap: 'history' });
    } finally {
      expect(await service.stop()).toBe(0);
    }
  }, 240_000);

  it('refuses a bad configuration with a clear message and exit code 1', async () => {
    await expect(spawnService({ ...SERVICE, env: { ...DEV, VALIDATOR_SECRET_URI: '' } })).rejects.toThrow(/no verifier identity/);
    await expect(spawnService({ ...SERVICE, env: { ...DEV, VERIFIER_BOOTSTRAP: 'everything' } })).rejects.toThrow(/VERIFIER_BOOTSTRAP must be one of/);
  }, 90_000);
});
