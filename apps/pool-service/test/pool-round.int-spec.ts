import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { keypairFromUri } from '@rcs/auth';
import { childProcessBaseEnv, createTestRedis, spawnService, SpawnedService, TestDatabase, TestRedis } from '@rcs/testing';
import { createPoolTestDatabase, poolStoresEnv } from './support/harness';

const ROOT = join(__dirname, '..', '..', '..');

/** The scripted round: `npm run -s pool-round -- --url U` as a child process against a pool process. */
describe('npm run -s pool-round against a running pool-service', () => {
  let db: TestDatabase;
  let redis: TestRedis;
  let pool: SpawnedService;

  beforeAll(async () => {
    [db, redis] = await Promise.all([createPoolTestDatabase(), createTestRedis()]);
    const validator = await keypairFromUri('//Alice');
    pool = await spawnService({
      entry: 'apps/pool-service/src/main.ts',
      portVariable: 'POOL_PORT',
      healthPath: '/healthz',
      env: {
        ...poolStoresEnv(db, redis),
        CHAIN: 'dev',
        NETUID: '1',
        VALIDATOR_HOTKEYS: validator.address,
        // As the local stack runs it: pool-round's miners are fresh keys without stake.
        POOL_STAKE_CHECK: 'off',
        // The seed set the local stack ships.
        POOL_SEED_FILE: 'apps/pool-service/seeds/cifar10_binary.json',
      },
    });
  }, 120_000);

  afterAll(async () => {
    expect(await pool.stop()).toBe(0);
    await redis.cleanup();
    await db.drop();
  });

  it('registers three miners, evolves, leases, reaches consensus, sets recipients and verifies a result', async () => {
    const { stdout } = await promisify(execFile)('npm', ['run', '-s', 'pool-round', '--', '--url', pool.url], { cwd: ROOT, env: childProcessBaseEnv() });
    const steps = stdout
      .trim()
      .split('\n')
      .map((line) => line.split(':')[0]);
    expect(steps).toEqual(['health', 'register', 'evolve', 'lease', 'consensus', 'recipient', 'verify', 'leaderboard', 'pool-round']);
    const [, algorithmId, resultId] = /pool-round: ok \(algorithm (\d+), result (\d+), sota ([0-9.]+)\)/.exec(stdout) ?? [];
    const rows = (await db.dataSource.query(
      `SELECT a.status, r.status AS result_status, (SELECT count(*) FROM miners WHERE recipient_coldkey IS NOT NULL)::int AS recipients
       FROM algorithms a JOIN results r ON r.algorithm_id = a.id WHERE a.id = $1 AND r.id = $2`,
      [Number(algorithmId), Number(resultId)],
    )) as { status: string; result_status: string; recipients: number }[];
    expect(rows).toEqual([{ status: 'scored', result_status: 'verified', recipients: 3 }]);
  }, 120_000);

  it('exits 1 naming the step when the validator is not allowlisted', async () => {
    const run = promisify(execFile)('npm', ['run', '-s', 'pool-round', '--', '--url', pool.url, '--validator-uri', '//Bob'], { cwd: ROOT, env: childProcessBaseEnv() });
    await expect(run).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/pool-round: failed: results \(pending\): expected HTTP 200 \(HTTP 403\)/) });
  }, 120_000);
});
