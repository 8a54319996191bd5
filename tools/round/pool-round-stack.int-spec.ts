import { keypairFromUri } from '@rcs/auth';
import { childProcessBaseEnv, createScratchDatabase, createTestRedis, runScript, spawnService, type SpawnedService, type TestRedis } from '@rcs/testing';
import { STACK_NETUID, stackDevChainSeed } from '../stack/pool-miners';

/** `npm run pool-round -- --stack-miners` against a pool configured as `npm start` configures it (its DEV_CHAIN_SEED, windows, blocks). */
describe("pool-round with the local stack's miners, whose owners the stack's dev chain records", () => {
  let db: Awaited<ReturnType<typeof createScratchDatabase>>;
  let redis: TestRedis;
  let pool: SpawnedService;

  beforeAll(async () => {
    [db, redis] = await Promise.all([createScratchDatabase('pool_round_stack'), createTestRedis()]);
    const validator = (await keypairFromUri('//Alice')).address;
    pool = await spawnService({
      entry: 'apps/pool-service/src/main.ts',
      portVariable: 'POOL_PORT',
      healthPath: '/healthz',
      timeoutMs: 120_000,
      env: {
        POOL_DATABASE_URL: db.url,
        REDIS_URL: redis.url,
        REDIS_KEY_PREFIX: redis.prefix,
        CHAIN: 'dev',
        NETUID: STACK_NETUID,
        DEV_CHAIN_SEED: JSON.stringify(await stackDevChainSeed(validator)),
        DEV_CHAIN_BLOCK_TIME_MS: '1000',
        POOL_WINDOW_BLOCKS: '10',
        VALIDATOR_HOTKEYS: validator,
        POOL_SEED_FILE: 'apps/pool-service/seeds/cifar10_binary.json',
      },
    });
  }, 150_000);

  afterAll(async () => {
    await pool?.stop();
    await redis?.cleanup();
    await db?.drop();
  });

  it('scores and verifies a result with five miners of four owners, and again with the same miners in a later window', async () => {
    const leaseWindows: number[] = [];
    for (const run of [1, 2]) {
      const result = await runScript(['tools/round/pool-main.ts', '--url', pool.url, '--stack-miners'], childProcessBaseEnv());
      expect({ run, ...result }).toMatchObject({ run, code: 0, output: expect.stringMatching(/register: 5 miners[\s\S]*consensus: algorithm \d+ scored[\s\S]*pool-round: ok/) });
      leaseWindows.push(Number(/lease: window (\d+)/.exec(result.output)?.[1]));
    }
    // One lease per miner per window: a second run that starts in the first run's window waits for the next.
    expect(leaseWindows[1]).toBeGreaterThan(leaseWindows[0]);
  }, 120_000);
});
