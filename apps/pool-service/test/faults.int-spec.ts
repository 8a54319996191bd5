import { keypairFromUri } from '@rcs/auth';
import { sharedGenesisKey } from '@rcs/chain';
import { EpochJob, QueueName } from '@rcs/contracts';
import { JobQueue } from '@rcs/queue';
import { FakeCoordinator, snapshotOf, until } from '@rcs/testing';
import { Redis } from 'ioredis';
import { EPOCH_CHECK_SCHEDULER_ID } from '../src/epochs/epochs.job';
import type { PoolJobs } from '../src/jobs/pool-jobs';
import { PoolClient, PoolHarness } from './support/harness';
import { fastEpochsEnv, OwnStores, servePoolOn, startOwnStores } from './support/own-stores';

/**
 * The pool when its Postgres or its Redis goes away across a window end: every ended window gets
 * its epoch, once, in order (DECISIONS §8). The pool runs on a Postgres and a Redis of this file's own.
 */

const BUDGET = 1000n;
const BLOCK_MS = 100;
const WINDOW_BLOCKS = 20; // 2 s windows

describe('pool faults: rollovers across a Postgres outage and an emptied Redis', () => {
  const coordinator = new FakeCoordinator();
  let pool: Omit<PoolHarness, 'db' | 'redis'>;
  let client: PoolClient;
  let stores: OwnStores;
  let redis: Redis;

  beforeAll(async () => {
    [stores] = await Promise.all([startOwnStores(), coordinator.start()]);
    redis = new Redis(stores.redis.url, { maxRetriesPerRequest: 1 });
    coordinator.snapshot = snapshotOf([[(await keypairFromUri('//FaultMiner')).address, 1]]);
    pool = await servePoolOn(stores, 'faults', { COORDINATOR_URL: coordinator.url, ...fastEpochsEnv(BUDGET, WINDOW_BLOCKS, BLOCK_MS) });
    client = pool.client;
  }, 120_000);

  afterAll(async () => {
    await pool?.close();
    redis?.disconnect();
    await coordinator.close();
    await stores?.destroy();
  });

  const window = async (): Promise<number> => {
    const reply = await client.send<{ window_number: number | null }>('GET', '/status');
    return reply.body.window_number ?? -1;
  };
  const stored = async (): Promise<{ epoch: number; budget: string; units: string }[]> =>
    (await stores.db.query(
      `SELECT e.epoch::int AS epoch, e.budget::text AS budget, (SELECT coalesce(sum(a.units), 0)::text FROM epoch_allocations a WHERE a.epoch = e.epoch) AS units
         FROM epochs e ORDER BY e.created_at, e.epoch`,
    )) as { epoch: number; budget: string; units: string }[];

  /** Every window from the first epoch to the last one ended before `upTo` has exactly one epoch, stored in window order, each paying the whole budget. */
  function expectNoGap(rows: { epoch: number; budget: string; units: string }[], upTo: number): void {
    const epochs = rows.map((row) => row.epoch);
    const first = epochs[0];
    expect(epochs.slice(0, upTo - first)).toEqual(Array.from({ length: upTo - first }, (_, i) => first + i));
    for (const row of rows) expect([row.budget, row.units]).toEqual([BUDGET.toString(), BUDGET.toString()]);
  }

  it('rolls over, once and in order, every window that ended while Postgres was down (a rollover that failed before its commit is run again)', async () => {
    await until('a first epoch', stored, (rows) => rows.length > 0);
    await stores.pg.crash();
    const down = await window();
    // Two windows end with the database away: their rollovers fail before any commit.
    await until('two windows ended during the outage', window, (w) => w >= down + 2);
    await stores.pg.start();
    const back = Date.now();
    const ended = (await window()) - 1;
    const rows = await until('every window ended during the outage has its epoch', stored, (r) => r.some((row) => row.epoch >= ended), 60_000);
    process.stderr.write(`faults: Postgres back → epoch of window ${ended} after ${Date.now() - back} ms\n`);
    expectNoGap(rows, ended + 1);
  }, 120_000);

  it('after Redis comes back empty, re-adds the epoch-check schedule and rolls over the next windows without a gap', async () => {
    const jobs = pool.app.get<JobQueue<PoolJobs>>(JobQueue);
    const genesis = await redis.get(sharedGenesisKey('faults'));
    expect(genesis).not.toBeNull();
    await redis.flushall();
    const flushed = Date.now();
    await until('the epoch-check schedule is back', () => jobs.queue(QueueName.Epochs, EpochJob.Check).getJobScheduler(EPOCH_CHECK_SCHEDULER_ID), (s) => Boolean(s));
    // The dev chain's block 0 is written back as it was, not re-based.
    expect(await until('the genesis is back', () => redis.get(sharedGenesisKey('faults')), (g) => g !== null)).toBe(genesis);
    const ended = (await window()) - 1;
    const rows = await until('a window ended after the flush has its epoch', stored, (r) => r.some((row) => row.epoch >= ended + 1), 60_000);
    process.stderr.write(`faults: Redis emptied → epoch of window ${ended + 1} after ${Date.now() - flushed} ms\n`);
    expectNoGap(rows, ended + 2);
    const status = await client.send<{ status: string; degraded_reasons: string[] }>('GET', '/status');
    expect(status.body).toMatchObject({ status: 'healthy', degraded_reasons: [] });
  }, 120_000);
});
