import { keypairFromUri } from '@rcs/auth';
import { EpochJob, QueueName } from '@rcs/contracts';
import { FakeCoordinator, RedisServer, snapshotOf, SpawnedService, spawnService, SpawnServiceOptions, startRedisServer, TestDatabase, until } from '@rcs/testing';
import { queueKeyPrefix } from '@rcs/queue';
import { Queue } from 'bullmq';
import { rolloverJobId } from '../src/epochs/epochs.job';
import { createPoolTestDatabase } from './support/harness';
import { fastEpochsEnv } from './support/own-stores';

/**
 * The pool process killed (SIGKILL) while a window's rollover is running, nothing of it stored: after
 * a restart that window gets its epoch, once, within seconds, and the later windows follow in order
 * (DECISIONS §8). The coordinator holds the snapshot request open so the kill lands mid-rollover every
 * time. The pool runs as its own process, on a Redis of this file's own and a scratch database.
 */

const SERVICE: SpawnServiceOptions = { entry: 'apps/pool-service/src/main.ts', portVariable: 'POOL_PORT', healthPath: '/healthz' };
const BUDGET = 1000n;
const BLOCK_MS = 100;
const WINDOW_BLOCKS = 20; // 2 s windows
/** How long after the restart the killed window may take to get its epoch (the epochs queue's lock and stall check, docs/operations.md, "Pool under faults"). */
const RERUN_BOUND_MS = 10_000;

interface StoredEpoch {
  epoch: number;
  budget: string;
  carried_in: string;
  carried_over: string;
  units: string;
}

describe('pool faults: SIGKILL during a rollover', () => {
  const coordinator = new FakeCoordinator();
  let redisServer: RedisServer;
  let db: TestDatabase;
  let queue: Queue;
  let pool: SpawnedService | null = null;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    [redisServer, db] = await Promise.all([startRedisServer(), createPoolTestDatabase(), coordinator.start()]);
    coordinator.snapshot = snapshotOf([[(await keypairFromUri('//KillMiner')).address, 1]]);
    env = {
      POOL_DATABASE_URL: db.url,
      REDIS_URL: redisServer.url,
      REDIS_KEY_PREFIX: 'kill',
      CHAIN: 'dev',
      NETUID: '1',
      POOL_STAKE_CHECK: 'off',
      COORDINATOR_URL: coordinator.url,
      ...fastEpochsEnv(BUDGET, WINDOW_BLOCKS, BLOCK_MS),
    };
    queue = new Queue(QueueName.Epochs, { connection: { host: '127.0.0.1', port: redisServer.port }, prefix: queueKeyPrefix('kill:pool', QueueName.Epochs) });
    pool = await spawnService({ ...SERVICE, env });
  }, 120_000);

  afterAll(async () => {
    await pool?.stop();
    await queue?.close();
    await coordinator.close();
    await db?.drop();
    await redisServer?.destroy();
  });

  const stored = async (): Promise<StoredEpoch[]> =>
    (await db.dataSource.query(
      `SELECT e.epoch::int AS epoch, e.budget::text AS budget, e.carried_in::text AS carried_in, e.carried_over::text AS carried_over,
              (SELECT coalesce(sum(a.units), 0)::text FROM epoch_allocations a WHERE a.epoch = e.epoch) AS units
         FROM epochs e ORDER BY e.created_at, e.epoch`,
    )) as StoredEpoch[];

  it(`re-runs the killed window's rollover within ${RERUN_BOUND_MS / 1000} s of the restart: its epoch once, the later windows in order, every budget paid`, async () => {
    const first = await until('a first epoch', stored, (rows) => rows.length > 0, 60_000);
    coordinator.hold();
    await until('a rollover waits on the snapshot', async () => coordinator.heldRequests, (n) => n > 0);
    const [running] = (await queue.getActive()).filter((job) => job.name === EpochJob.Rollover);
    const killedWindow = (running.data as { window: number }).window;
    expect(killedWindow).toBeGreaterThan(first[0].epoch);
    expect((await stored()).map((row) => row.epoch)).not.toContain(killedWindow);

    expect(await pool?.stop('SIGKILL')).toBeNull();
    // Killed mid-rollover: BullMQ still holds the job as active, and nothing of the window is stored.
    expect(await (await queue.getJob(rolloverJobId(killedWindow)))?.getState()).toBe('active');
    expect((await stored()).map((row) => row.epoch)).not.toContain(killedWindow);

    const spawning = Date.now();
    pool = await spawnService({ ...SERVICE, env });
    const restarted = Date.now();
    coordinator.answer();
    await until(`the epoch of window ${killedWindow}`, stored, (rows) => rows.some((row) => row.epoch === killedWindow), RERUN_BOUND_MS);
    process.stderr.write(
      `faults: pool SIGKILLed mid-rollover of window ${killedWindow}; restart took ${restarted - spawning} ms, its epoch ${Date.now() - restarted} ms after the restart\n`,
    );

    // The windows that ended meanwhile follow, and the next ones keep coming.
    const rows = await until('two epochs after the killed window', stored, (r) => r.some((row) => row.epoch >= killedWindow + 2), 30_000);
    const epochs = rows.map((row) => row.epoch);
    const last = epochs[epochs.length - 1];
    expect(epochs).toEqual(Array.from({ length: last - epochs[0] + 1 }, (_, i) => epochs[0] + i));
    for (const row of rows) expect(row).toMatchObject({ budget: BUDGET.toString(), carried_in: '0', carried_over: '0', units: BUDGET.toString() });
  }, 180_000);
});
