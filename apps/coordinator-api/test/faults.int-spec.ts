import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Queue } from 'bullmq';
import { QueueName, SubmissionDto } from '@rcs/contracts';
import { JobQueue, QUEUE_REACH_MS } from '@rcs/queue';
import { PostgresServer, RedisServer, SpawnedService, spawnService, startPostgresServer, startRedisServer } from '@rcs/testing';
import { CoordinatorJobs } from '../src/jobs/coordinator-jobs';
import { CoordinatorHarness } from './harness';
import { Body, expectStatus, Reply, TEST_TASK, TestClient } from './submissions-fixtures';
import { until } from './support/until';
import { Cast, cast, startValidationCoordinator, ValidationClient } from './validator-jobs-fixtures';

/**
 * What clients see when the coordinator's Redis or Postgres goes away. The coordinator
 * runs on a Redis and a Postgres of this file's own, which it stops, crashes and starts again.
 */

/** Far below the 10 s the coordinator used to hang: an answer, not a timeout. */
const FAST_MS = 2000;
const SNAPSHOT_CHECK_SECONDS = 1;
const CLAIM = { claim_description: 'Trying a change while a backing service is away.' };
const TASK = { ...TEST_TASK, title: 'Fault test task' };

interface Snapshot {
  competitions: { competition_id: string; miners: { miner_hotkey: string }[] }[];
}

describe('faults: Redis and Postgres going away', () => {
  let pg: PostgresServer;
  let redis: RedisServer;
  let people: Cast;
  let h: CoordinatorHarness;
  let api: ValidationClient;
  let dataSource: DataSource;

  beforeAll(async () => {
    [pg, redis, people] = await Promise.all([startPostgresServer(), startRedisServer(), cast()]);
    await pg.createDatabase('coordinator');
    h = await startValidationCoordinator(people, {
      COORDINATOR_DATABASE_URL: pg.databaseUrl('coordinator'),
      REDIS_URL: redis.url,
      SNAPSHOT_CHECK_INTERVAL_SECONDS: String(SNAPSHOT_CHECK_SECONDS),
      SCHEDULE_CHECK_INTERVAL_SECONDS: '1',
    });
    api = new ValidationClient(h);
    dataSource = h.app.get(DataSource);
  }, 120_000);

  afterAll(async () => {
    await h?.close();
    await Promise.all([pg?.destroy(), redis?.destroy()]);
  });

  /** Sends `request` and answers the reply with how long it took. */
  async function timed<T = unknown>(request: () => Promise<Reply<T>>): Promise<{ reply: Reply<T>; ms: number }> {
    const started = Date.now();
    const reply = await request();
    return { reply, ms: Date.now() - started };
  }

  function expectUnavailable(reply: Reply<unknown>, error: string): void {
    expect(reply.status).toBe(503);
    expect(reply.body).toMatchObject({ detail: { error } });
    expect(reply.headers.get('retry-after')).toMatch(/^\d+$/);
  }

  /** Sends the exact same signed request again: headers, body and all. */
  async function sendSigned(url: string, headers: Record<string, string>, body: string): Promise<Reply<Body>> {
    const response = await fetch(`${h.url}${url}`, { method: 'POST', body, headers: { ...headers, 'content-type': 'application/json' } });
    const text = await response.text();
    return { status: response.status, body: JSON.parse(text) as Body, text, headers: response.headers };
  }

  const snapshotNames = async (taskId: string, hotkey: string): Promise<boolean> => {
    const reply = await api.anonymous<Snapshot>('GET', '/api/v1/reward-snapshot');
    return reply.status === 200 && (reply.body.competitions.find((c) => c.competition_id === taskId)?.miners ?? []).some((m) => m.miner_hotkey === hotkey);
  };

  const rewardsQueue = (): Queue => h.app.get<JobQueue<CoordinatorJobs>>(JobQueue).queue(QueueName.Rewards);

  describe('Redis stopped', () => {
    let task: { id: string };

    beforeAll(async () => {
      task = await api.createTask({ metric_name: 'accuracy', metric_direction: 'maximize' });
      await redis.stop();
    });

    afterAll(async () => {
      await redis.start();
      await until('signed requests work again', () => api.scan(people.alice, { limit: 1 }), (r) => r.status === 200);
    });

    it('answers signed POSTs 503 redis_unavailable with Retry-After at once, not after a 10 s hang', async () => {
      const requests: (() => Promise<Reply<unknown>>)[] = [
        () => api.signed(people.dave, 'POST', `/api/v1/tasks/${task.id}/claim`, CLAIM),
        () => api.scan(people.alice, { limit: 1 }),
      ];
      for (const request of requests) {
        const { reply, ms } = await timed(request);
        expectUnavailable(reply, 'redis_unavailable');
        expect(ms).toBeLessThan(FAST_MS);
      }
    });

    it('answers routes that only ask for a snapshot rebuild without waiting on the queue', async () => {
      // Admin routes need no Redis themselves; the rebuild they ask for is queued when Redis can take it.
      const { reply, ms } = await timed(() => api.admin('POST', `/api/v1/tasks/${task.id}/pause`));
      expectStatus(reply, 200);
      expect(ms).toBeLessThan(FAST_MS);
      const resumed = await timed(() => api.admin('POST', `/api/v1/tasks/${task.id}/resume`));
      expectStatus(resumed.reply, 200);
      expect(resumed.ms).toBeLessThan(FAST_MS);
    });

    it('answers routes that wait for a job 503 redis_unavailable once the queue cannot take it, not when Redis returns', async () => {
      const { reply, ms } = await timed(() => api.admin('POST', '/api/v1/planner/run'));
      expectUnavailable(reply, 'redis_unavailable');
      expect(ms).toBeLessThan(QUEUE_REACH_MS + FAST_MS);
    });

    it('keeps answering public reads from the database', async () => {
      const { reply, ms } = await timed(() => api.anonymous('GET', `/api/v1/tasks/${task.id}`));
      expectStatus(reply, 200);
      expect(ms).toBeLessThan(FAST_MS);
    });
  });

  describe('Redis restarted empty', () => {
    it('refuses a signature used before the restart, and signed writes signed after it work', async () => {
      const task = await api.createTask();
      const url = `/api/v1/tasks/${task.id}/claim`;
      const body = JSON.stringify(CLAIM);
      const signedAt = Math.floor(Date.now() / 1000);
      const headers = { ...people.dave.signRequest({ method: 'POST', url, body, timestamp: signedAt }) };
      expectStatus(await sendSigned(url, headers, body), 201);
      expect((await sendSigned(url, headers, body)).body).toMatchObject({ detail: { error: 'replayed_signature' } });

      // The store is found empty in a later second than the signature's (timestamps are whole seconds).
      await until('the clock is past the signing second', () => Promise.resolve(Math.floor(Date.now() / 1000)), (now) => now > signedAt, 2000, 20);
      await redis.stop();
      await redis.start();
      const replay = await until('Redis answers the coordinator again', () => sendSigned(url, headers, body), (r) => r.status !== 503);
      expect(replay.status).toBe(401);
      expect(replay.body).toMatchObject({ detail: { error: 'stale_timestamp' } });
      // A request signed now is not refused: only what may predate the empty store is.
      const fresh = await api.signed(people.dave, 'POST', url, CLAIM);
      expect(fresh.body).toMatchObject({ detail: { error: 'duplicate_active_claim' } });
    });

    it('re-adds the repeatable sweeps and the snapshot check that the restart lost', async () => {
      const maintenance = h.app.get<JobQueue<CoordinatorJobs>>(JobQueue).queue(QueueName.Maintenance);
      const ids = async (): Promise<string[]> =>
        [...(await maintenance.getJobSchedulers()), ...(await rewardsQueue().getJobSchedulers())].map((s) => s.key).sort();
      const expected = ['check-reward-snapshot', 'expire-claims', 'expire-leases'];
      expect(await until('schedules present', ids, (found) => found.length === 3)).toEqual(expected);

      await redis.stop();
      await redis.start();
      expect(await until('schedules re-added', ids, (found) => found.length === 3, 15_000)).toEqual(expected);
    });
  });

  describe('Postgres crashed', () => {
    let task: { id: string };

    beforeAll(async () => {
      task = await api.createTask();
      await pg.crash();
    });

    afterAll(async () => {
      await pg.start();
      await until('the database answers again', () => api.anonymous('GET', '/api/v1/tasks'), (r) => r.status === 200);
    });

    it('answers routes touching the database 503 database_unavailable with Retry-After at once', async () => {
      const requests: (() => Promise<Reply<unknown>>)[] = [
        () => api.anonymous('GET', '/api/v1/tasks'),
        () => api.anonymous('GET', `/api/v1/tasks/${task.id}`),
        () => api.signed(people.eve, 'POST', `/api/v1/tasks/${task.id}/claim`, CLAIM),
        () => api.admin('POST', '/api/v1/tasks', { ...TASK, slug: `t-${randomBytes(4).toString('hex')}` }),
      ];
      for (const request of requests) {
        const { reply, ms } = await timed(request);
        expectUnavailable(reply, 'database_unavailable');
        expect(ms).toBeLessThan(FAST_MS);
      }
    });

    it('says so on /readyz', async () => {
      const reply = await api.anonymous<{ checks: { database: { ok: boolean } } }>('GET', '/readyz');
      expect(reply.status).toBe(503);
      expect(reply.body.checks.database.ok).toBe(false);
    });
  });

  describe('the snapshot catches up by itself', () => {
    async function decided(miner: Cast['dave']): Promise<{ taskId: string; submission: SubmissionDto }> {
      const task = await api.createTask({ metric_name: 'accuracy', metric_direction: 'maximize' });
      const submission = await api.pending(miner, task.id);
      return { taskId: task.id, submission };
    }

    /** Holds rebuilds and checks back: the queue is paused and nothing of it is running. */
    async function holdRebuilds(): Promise<void> {
      await rewardsQueue().pause();
      await until('no rebuild or check running', () => rewardsQueue().getActiveCount(), (n) => n === 0);
    }

    async function decide(miner: Cast['dave'], metric: number): Promise<string> {
      const { taskId, submission } = await decided(miner);
      const job = await api.leaseOf(people.alice, submission);
      await holdRebuilds();
      expectStatus(await api.result(people.alice, job.job_id, { status: 'accepted', observed_metrics: { accuracy: metric } }), 200);
      expect(await snapshotNames(taskId, miner.hotkey)).toBe(false);
      return taskId;
    }

    it('after a Postgres outage failed the rebuild a decision asked for', async () => {
      const taskId = await decide(people.dave, 0.9);
      await pg.crash();
      await rewardsQueue().resume();
      // Every attempt of that rebuild fails while Postgres is down; nothing retries it later.
      const failedRebuilds = async (): Promise<number> => (await rewardsQueue().getFailed()).filter((j) => j.name === 'rebuild-snapshot').length;
      await until('the rebuild failed for good', failedRebuilds, (n) => n > 0, 20_000);

      await pg.start();
      const back = Date.now();
      await until('the snapshot names the miner', () => snapshotNames(taskId, people.dave.hotkey), Boolean, 20_000);
      const catchUpMs = Date.now() - back;
      process.stdout.write(`snapshot caught up ${catchUpMs} ms after Postgres returned (check every ${SNAPSHOT_CHECK_SECONDS} s)\n`);
      expect(catchUpMs).toBeLessThan((SNAPSHOT_CHECK_SECONDS + 5) * 1000);
    });

    it('after Redis restarted empty and lost the rebuild a decision asked for', async () => {
      const taskId = await decide(people.eve, 0.8);
      // The waiting rebuild (and the paused state, and every schedule) go with Redis's data.
      await redis.stop();
      await redis.start();
      const back = Date.now();
      await until('the snapshot names the miner', () => snapshotNames(taskId, people.eve.hotkey), Boolean, 20_000);
      const catchUpMs = Date.now() - back;
      process.stdout.write(`snapshot caught up ${catchUpMs} ms after Redis returned empty (check every ${SNAPSHOT_CHECK_SECONDS} s)\n`);
      expect(catchUpMs).toBeLessThan((SNAPSHOT_CHECK_SECONDS + 5) * 1000);
      await until('every recorded change is in the snapshot', () => dataSource.query('SELECT count(*)::int AS n FROM reward_snapshot_changes'), (rows) => JSON.stringify(rows) === '[{"n":0}]');
    });
  });

  describe('a coordinator killed with SIGKILL in the middle of a rebuild', () => {
    const database = 'coordinator_kill';
    const prefix = `kill-${randomBytes(4).toString('hex')}`;
    let adminToken: string;
    let child: SpawnedService | null = null;

    const start = async (): Promise<SpawnedService> =>
      spawnService({
        entry: 'apps/coordinator-api/src/main.ts',
        portVariable: 'COORDINATOR_PORT',
        healthPath: '/healthz',
        env: {
          COORDINATOR_DATABASE_URL: pg.databaseUrl(database),
          REDIS_URL: redis.url,
          REDIS_KEY_PREFIX: prefix,
          CHAIN: 'dev',
          NETUID: '1',
          STAKE_CHECK: 'off',
          ADMIN_TOKENS: adminToken,
          VALIDATOR_HOTKEYS: people.alice.hotkey,
          SNAPSHOT_CHECK_INTERVAL_SECONDS: String(SNAPSHOT_CHECK_SECONDS),
        },
      });

    beforeAll(async () => {
      adminToken = randomBytes(16).toString('hex');
      await pg.createDatabase(database);
    });

    afterAll(async () => {
      await child?.stop();
    });

    it('catches up once a coordinator runs again', async () => {
      child = await start();
      const client = new TestClient({ url: child.url, adminToken });
      const task = await client.createTask({ metric_name: 'accuracy', metric_direction: 'maximize' });
      await client.submitted(people.ferdie, task.id, {
        artifact_uri: 'https://cdn.test/models/model.bin',
        artifact_sha256: 'ab'.repeat(32),
        artifact_size_bytes: 1024,
      });
      const scan = await client.signed<{ jobs: { job_id: string }[] }>(people.alice, 'POST', '/api/v1/validator/submissions/scan', { task_id: task.id, limit: 1 });
      expectStatus(scan, 200);

      // Every rebuild (and check) now waits inside its read: the idea rewards are locked away from it.
      const holder = new DataSource({ type: 'postgres', url: pg.databaseUrl(database) });
      await holder.initialize();
      const runner = holder.createQueryRunner();
      await runner.connect();
      await runner.startTransaction();
      try {
        await runner.query('LOCK TABLE idea_rewards IN ACCESS EXCLUSIVE MODE');
        const result = await client.signed(people.alice, 'POST', `/api/v1/validator/jobs/${scan.body.jobs[0].job_id}/result`, {
          status: 'accepted',
          observed_metrics: { accuracy: 0.7 },
        });
        expectStatus(result, 200);
        await until(
          'a rebuild is waiting inside its read',
          () => holder.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'`, [database]),
          (rows: { n: number }[]) => rows[0].n > 0,
        );
        await child.stop('SIGKILL');
        child = null;
      } finally {
        await runner.rollbackTransaction();
        await runner.release();
        await holder.destroy();
      }

      child = await start();
      const restarted = new TestClient({ url: child.url, adminToken });
      const back = Date.now();
      await until(
        'the snapshot names the miner',
        async () => {
          const reply = await restarted.anonymous<Snapshot>('GET', '/api/v1/reward-snapshot');
          return reply.status === 200 && (reply.body.competitions.find((c) => c.competition_id === task.id)?.miners ?? []).some((m) => m.miner_hotkey === people.ferdie.hotkey);
        },
        Boolean,
        20_000,
      );
      const catchUpMs = Date.now() - back;
      process.stdout.write(`snapshot caught up ${catchUpMs} ms after the killed coordinator was running again (check every ${SNAPSHOT_CHECK_SECONDS} s)\n`);
      expect(catchUpMs).toBeLessThan((SNAPSHOT_CHECK_SECONDS + 5) * 1000);
    }, 180_000);
  });
});
