import { Queue } from 'bullmq';
import { cryptoReady } from '@rcs/auth';
import type { LocalExtrinsicPool, LocalRpcServer } from '@rcs/chain/testing';
import { QueueName, type WeightSetterStatusDto } from '@rcs/contracts';
import { queueKeyPrefix, redisOptionsFromUrl } from '@rcs/queue';
import { createTestRedis, spawnService, type SpawnedService, type TestRedis } from '@rcs/testing';
import { setterEnv, SnapshotServer, startChain } from './support/fixtures';

/** Two setter processes for one hotkey (`//Alice`) against one local node, one Redis prefix and one coordinator. */
describe('one owner per hotkey (two processes)', () => {
  let redis: TestRedis;
  let node: LocalRpcServer;
  let pool: LocalExtrinsicPool;
  let coordinator: SnapshotServer;
  const setters: SpawnedService[] = [];
  /** When each set_weights was included (ms). */
  const included: number[] = [];

  beforeAll(async () => {
    await cryptoReady();
    redis = await createTestRedis();
    ({ node, pool } = await startChain());
    // LastUpdate stays empty, so the rate limit never holds: every interval may set weights once.
    pool.onIncluded = () => included.push(Date.now());
    coordinator = await SnapshotServer.start();
  });

  afterAll(async () => {
    await Promise.all(setters.map((s) => s.stop('SIGKILL')));
    await node?.close();
    await coordinator?.close();
    await redis?.cleanup();
  });

  const status = async (setter: SpawnedService): Promise<WeightSetterStatusDto> => (await (await fetch(`${setter.url}/status`)).json()) as WeightSetterStatusDto;

  async function until<T>(what: string, read: () => Promise<T> | T, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms (last: ${JSON.stringify(value)})`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** The `weights.set` jobs that set weights: ids `interval-<n>`, each once, as many as the extrinsics the node got. */
  async function expectOneSetPerIntervalJob(): Promise<void> {
    const queue = new Queue(QueueName.Weights, { connection: redisOptionsFromUrl(redis.url), prefix: queueKeyPrefix(`${redis.prefix}:weight-setter`, QueueName.Weights) });
    try {
      const sets = (await queue.getJobs(['completed'])).filter((job) => (job.returnvalue as { outcome?: string } | null)?.outcome === 'set');
      const ids = sets.map((job) => job.id ?? '');
      expect(ids.every((id) => /^interval-\d+$/.test(id))).toBe(true);
      expect(new Set(ids).size).toBe(ids.length);
      // A pass still running when counted has submitted but not completed: at most one such.
      expect(pool.received.length - sets.length).toBeGreaterThanOrEqual(0);
      expect(pool.received.length - sets.length).toBeLessThanOrEqual(1);
    } finally {
      await queue.close();
    }
  }

  it('exactly one sets weights, one pass per interval; killing it hands over to the standby', async () => {
    const env = setterEnv({
      wsUrl: node.url,
      coordinatorUrl: coordinator.url,
      redisUrl: redis.url,
      prefix: redis.prefix,
      extra: { WEIGHTS_INTERVAL_SECONDS: '2', WEIGHTS_LOCK_TTL_SECONDS: '6', WEIGHTS_INCLUSION_TIMEOUT_SECONDS: '10' },
    });
    setters.push(...(await Promise.all([0, 1].map(() => spawnService({ entry: 'apps/weight-setter/src/main.ts', portVariable: 'WEIGHT_SETTER_PORT', healthPath: '/healthz', env })))));

    await until('three passes set weights', () => pool.received.length, (n) => n >= 3).catch(async (error: unknown) => {
      // What each setter says, and its output, to see why.
      const said = JSON.stringify(await Promise.all(setters.map(status)));
      process.stderr.write([said, ...setters.map((s) => s.output().slice(-3000))].join('\n----\n'));
      throw error;
    });
    const statuses = await Promise.all(setters.map(status));
    expect(statuses.map((s) => s.owner).sort()).toEqual([false, true]);
    const owner = setters[statuses.findIndex((s) => s.owner)];
    const standby = setters[statuses.findIndex((s) => !s.owner)];
    const readiness = (await (await fetch(`${standby.url}/readyz`)).json()) as { role: string };
    expect(readiness.role).toBe('standby');
    // Every set_weights came from one process (one connection to the node), one per interval job.
    const before = pool.received.map((e) => e.client);
    expect(new Set(before).size).toBe(1);
    await expectOneSetPerIntervalJob();
    // Both processes show the owner's last pass (it lives in Redis).
    expect(statuses.every((s) => s.last_pass?.outcome === 'set')).toBe(true);

    const killedAt = Date.now();
    expect(await owner.stop('SIGKILL')).toBeNull();
    await until('the standby takes over', () => status(standby), (s) => s.owner, 15_000);
    await until('the new owner sets weights', () => included.filter((t) => t > killedAt).length, (n) => n >= 1, 15_000);
    const after = await status(standby);
    expect(after).toMatchObject({ owner: true, last_pass: { outcome: 'set' } });
    expect((await (await fetch(`${standby.url}/readyz`)).json()) as { role: string }).toMatchObject({ role: 'owner' });
    // The new owner is another process: its set_weights arrive on another connection.
    const handedOver = pool.received.slice(before.length).map((e) => e.client);
    expect(handedOver.length).toBeGreaterThan(0);
    expect(handedOver.filter((client) => client === before[0])).toEqual([]);
    await expectOneSetPerIntervalJob();
  }, 180_000);
});
