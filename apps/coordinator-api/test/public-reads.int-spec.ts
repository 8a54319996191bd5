import { gunzipSync } from 'node:zlib';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Queue } from 'bullmq';
import { QueueName } from '@rcs/contracts';
import { queueKeyPrefix, redisOptionsFromUrl } from '@rcs/queue';
import { createHttpApp, createLogger, listen } from '@rcs/http';
import { AppModule } from '../src/app.module';
import { RewardSnapshotService } from '../src/rewards/reward-snapshot.service';
import { CoordinatorHarness, startCoordinator } from './harness';
import { acceptResult, insertPendingSubmission, insertRankedTask } from './support/best-results-rows';
import { until } from './support/until';

/**
 * The public reads (tasks, a task, its best, the reward snapshot, the dashboard) share concurrent
 * queries and answers in process, with ETag/304. Two replicas on one database and Redis: a change made
 * through one is served by the other on its very next answer, however warm that one's shared reads are.
 */
describe('public reads across two replicas', () => {
  let h: CoordinatorHarness;
  let second: NestFastifyApplication;
  let other: string;

  beforeAll(async () => {
    h = await startCoordinator();
    second = await createHttpApp(AppModule.forRoot(h.config), { logger: createLogger({ level: 'silent', name: 'coordinator-api' }) });
    other = await listen(second, 0, '127.0.0.1');
  });

  afterAll(async () => {
    await second.close();
    await h.close();
  });

  const admin = (path: string, body?: unknown): Promise<Response> =>
    fetch(`${h.url}${path}`, {
      method: 'POST',
      headers: { 'x-admin-token': h.adminToken, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  /** Many concurrent reads on the second replica, so its shared reads are warm and running. */
  async function burst(path: string, n = 20): Promise<Response[]> {
    return Promise.all(Array.from({ length: n }, () => fetch(`${other}${path}`)));
  }

  it('answers a task with an ETag, 304 for a matching If-None-Match, and the other replica\'s pause at once', async () => {
    const created = await admin('/api/v1/tasks', {
      slug: `reads-${Date.now()}`,
      title: 'Shared reads',
      repository: 'https://git.test/research/reads.git',
      base_ref: 'main',
      benchmark_command: 'python bench.py',
      metric_name: 'score',
      metric_direction: 'maximize',
      time_budget_seconds: 600,
    });
    expect(created.status).toBe(201);
    const task = (await created.json()) as { id: string };
    const answers = await burst(`/api/v1/tasks/${task.id}`);
    const bodies = await Promise.all(answers.map((a) => a.json() as Promise<{ task_state: string }>));
    expect(bodies.every((b) => b.task_state === 'live')).toBe(true);
    const etag = answers[0].headers.get('etag');
    expect(etag).toMatch(/^".+"$/);
    const unchanged = await fetch(`${other}/api/v1/tasks/${task.id}`, { headers: { 'if-none-match': etag ?? '' } });
    expect(unchanged.status).toBe(304);
    expect(await unchanged.text()).toBe('');

    expect((await admin(`/api/v1/tasks/${task.id}/pause`)).status).toBe(200);
    const [after] = await Promise.all([fetch(`${other}/api/v1/tasks/${task.id}`, { headers: { 'if-none-match': etag ?? '' } }), burst(`/api/v1/tasks/${task.id}`)]);
    expect(after.status).toBe(200);
    expect(((await after.json()) as { task_state: string }).task_state).toBe('paused');
    expect(after.headers.get('etag')).not.toBe(etag);
    const listed = (await (await fetch(`${other}/api/v1/tasks?task_state=paused`)).json()) as { id: string }[];
    expect(listed.map((t) => t.id)).toContain(task.id);
  });

  it('serves a new best decided through the other replica on the next read', async () => {
    const taskId = await insertRankedTask(h.db);
    const none = await fetch(`${other}/api/v1/tasks/${taskId}/best`);
    expect(none.status).toBe(404);
    const first = await insertPendingSubmission(h.db, { taskId, minerHotkey: '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty' });
    await acceptResult(h, taskId, first, { metric: 1 });
    await burst(`/api/v1/tasks/${taskId}/best`);
    const better = await insertPendingSubmission(h.db, { taskId, minerHotkey: '5FLSigC9HGRKVhB9FiEo4Y3koPsNmBmLJbpXg2mp1hXcS59Y' });
    await acceptResult(h, taskId, better, { metric: 2 });
    const best = (await (await fetch(`${other}/api/v1/tasks/${taskId}/best`)).json()) as { submission_id: string; metric_value: number };
    expect(best).toMatchObject({ submission_id: better, metric_value: 2 });
  });

  it('serves the reward snapshot another replica stored at once, as stored, gzip when asked, 304 when unchanged', async () => {
    // A rebuild queued by an earlier decision (the best above) would store a newer snapshot mid-test: let the queue settle first.
    const rewards = new Queue(QueueName.Rewards, { connection: redisOptionsFromUrl(h.redis.url), prefix: queueKeyPrefix(`${h.redis.prefix}:coordinator`, QueueName.Rewards) });
    try {
      await until('the rewards queue idle', () => rewards.getJobCounts('waiting', 'active', 'prioritized'), (counts) => Object.values(counts).every((n) => n === 0));
    } finally {
      await rewards.close();
    }
    const before = await fetch(`${other}/api/v1/reward-snapshot`, { headers: { 'accept-encoding': 'identity' } });
    expect(before.status).toBe(200);
    const beforeBody = await before.text();
    const etag = before.headers.get('etag') ?? '';
    expect((await fetch(`${other}/api/v1/reward-snapshot`, { headers: { 'if-none-match': etag } })).status).toBe(304);

    const rebuilt = await h.app.get(RewardSnapshotService).rebuild();
    const after = await fetch(`${other}/api/v1/reward-snapshot`, { headers: { 'accept-encoding': 'identity', 'if-none-match': etag } });
    expect(after.status).toBe(200);
    expect(after.headers.get('x-snapshot-generated-at')).toBe(rebuilt.generatedAt);
    expect(await after.text()).toBe(rebuilt.body);
    expect(rebuilt.body).not.toBe(beforeBody);

    // node's http client, so the compressed bytes are seen as sent.
    const raw = await new Promise<{ encoding: string | undefined; vary: string | undefined; bytes: Buffer }>((resolve, reject) => {
      const url = new URL(`${other}/api/v1/reward-snapshot`);
      void import('node:http').then(({ get }) =>
        get({ host: url.hostname, port: url.port, path: url.pathname, headers: { 'accept-encoding': 'gzip' } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ encoding: res.headers['content-encoding'], vary: res.headers.vary, bytes: Buffer.concat(chunks) }));
        }).on('error', reject),
      );
    });
    expect(raw.encoding).toBe('gzip');
    expect(raw.vary).toMatch(/accept-encoding/i);
    expect(gunzipSync(raw.bytes).toString()).toBe(rebuilt.body);
  });

  it('counts a claim made through the other replica on the dashboard at once', async () => {
    const taskId = await insertRankedTask(h.db);
    await burst('/api/v1/dashboard', 10);
    await h.db.dataSource.query(
      `INSERT INTO claims (task_id, miner_hotkey, claim_description, status, expires_at) VALUES ($1, 'miner-x', 'x', 'active', now() + interval '1 hour')`,
      [taskId],
    );
    const dashboard = (await (await fetch(`${other}/api/v1/dashboard`)).json()) as { tasks: { id: string; active_claims: number }[] };
    expect(dashboard.tasks.find((t) => t.id === taskId)?.active_claims).toBe(1);
  });
});
