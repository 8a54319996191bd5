import { randomBytes } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createHttpApp, createLogger, listen } from '@rcs/http';
import { SseClient, type SseEvent } from '@rcs/testing';
import { AppModule } from '../src/app.module';
import { CoordinatorHarness, startCoordinator } from './harness';
import { acceptResult, insertPendingSubmission, insertRankedTask } from './support/best-results-rows';

const MINER = '5GrwvaDNjYXWZkpwjHdtSUsChfDKyYqoX4qWBMqKFyrjqwq8';

/** GET /api/v1/events (DECISIONS §14): a bounded Redis stream, resumable with Last-Event-ID, served by every replica. */
describe('coordinator event stream', () => {
  let h: CoordinatorHarness;
  const clients: SseClient[] = [];

  const connect = async (url: string, headers: Record<string, string> = {}): Promise<SseClient> => {
    const client = await SseClient.connect(`${url}/api/v1/events`, headers);
    clients.push(client);
    return client;
  };

  const admin = async (method: string, path: string, body?: unknown): Promise<Record<string, unknown>> => {
    const response = await fetch(`${h.url}${path}`, {
      method,
      headers: { 'x-admin-token': h.adminToken, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.status).toBeLessThan(300);
    return (await response.json()) as Record<string, unknown>;
  };

  const createTask = () =>
    admin('POST', '/api/v1/tasks', {
      slug: `events-${randomBytes(4).toString('hex')}`,
      title: 'Events',
      repository: 'https://git.test/research/events.git',
      base_ref: 'main',
      benchmark_command: 'python bench.py',
      metric_name: 'score',
      metric_direction: 'maximize',
      time_budget_seconds: 600,
    });

  /** Events until one of type `until` about `taskId` (included). */
  const readUntil = async (client: SseClient, until: string, taskId: string): Promise<SseEvent[]> => {
    const seen: SseEvent[] = [];
    for (;;) {
      const [event] = await client.take(1);
      seen.push(event);
      if (event.event === until && (event.data as { task_id?: string }).task_id === taskId) return seen;
    }
  };

  beforeAll(async () => {
    h = await startCoordinator({ EVENTS_HEARTBEAT_SECONDS: '1', SNAPSHOT_CHECK_INTERVAL_SECONDS: '3600' });
  });

  afterAll(async () => {
    for (const client of clients) client.close();
    await h.close();
  });

  it('resumes with Last-Event-ID: exactly the events missed while disconnected, in order, none repeated', async () => {
    const first = await connect(h.url);
    expect(first.response.statusCode).toBe(200);
    expect(first.response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    const task = await createTask();
    // The startup snapshot build may announce itself first.
    const beforeCreated = await readUntil(first, 'task_state', String(task.id));
    const created = beforeCreated[beforeCreated.length - 1];
    expect(beforeCreated.slice(0, -1).every((event) => event.event === 'snapshot_rebuilt')).toBe(true);
    expect(created).toMatchObject({ event: 'task_state', data: { task_id: task.id, previous_state: null, state: 'live' } });
    first.close();

    // Produced while no client is connected.
    await admin('POST', `/api/v1/tasks/${String(task.id)}/pause`);
    await admin('POST', `/api/v1/tasks/${String(task.id)}/resume`);
    const ranked = await insertRankedTask(h.db);
    const submission = await insertPendingSubmission(h.db, { taskId: ranked, minerHotkey: MINER });
    await acceptResult(h, ranked, submission, { metric: 0.75 });
    const marker = await createTask();

    const second = await connect(h.url, { 'last-event-id': created.id });
    const resumed = await readUntil(second, 'task_state', String(marker.id));
    // Exactly what the stream holds after the last id the first connection saw.
    const stored = (await h.redis.redis.xrange(`${h.redis.prefix}:coordinator:events`, `(${created.id}`, resumed[resumed.length - 1].id)) as [string, string[]][];
    expect(resumed.map((event) => event.id)).toEqual(stored.map(([id]) => id));
    // The snapshot rebuild a decision asks for may land anywhere among them.
    const domain = resumed.filter((event) => event.event !== 'snapshot_rebuilt');
    expect(domain.map((event) => event.event)).toEqual(['task_state', 'task_state', 'decision', 'best_changed', 'task_state']);
    expect(domain[0].data).toEqual({ task_id: task.id, previous_state: 'live', state: 'paused' });
    expect(domain[1].data).toEqual({ task_id: task.id, previous_state: 'paused', state: 'live' });
    expect(domain[2].data).toMatchObject({ task_id: ranked, submission_id: submission, miner_hotkey: MINER, status: 'accepted', metric_name: 'score', verified_metric_value: 0.75 });
    expect(domain[3].data).toMatchObject({ task_id: ranked, submission_id: submission, metric_value: 0.75, previous_submission_id: null });

    // Live events follow on the same connection, once each.
    const paused = await admin('POST', `/api/v1/tasks/${String(marker.id)}/pause`);
    expect(paused.task_state).toBe('paused');
    const live = await readUntil(second, 'task_state', String(marker.id));
    expect(live.filter((event) => event.event === 'task_state')).toHaveLength(1);
    expect(live[live.length - 1].data).toEqual({ task_id: marker.id, previous_state: 'live', state: 'paused' });
  });

  it('sends heartbeat comments on an idle connection', async () => {
    const client = await connect(h.url);
    await client.comment(1);
    expect(client.ended).toBe(false);
  });

  it('answers a malformed Last-Event-ID with 422 in the shape of DECISIONS §1', async () => {
    const response = await fetch(`${h.url}/api/v1/events`, { headers: { 'last-event-id': 'yesterday' } });
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      detail: [expect.objectContaining({ type: 'value_error', loc: ['header', 'last-event-id'], input: 'yesterday' })],
    });
  });

  describe('a second replica on the same Redis', () => {
    let replica: NestFastifyApplication;
    let replicaUrl: string;

    beforeAll(async () => {
      replica = await createHttpApp(AppModule.forRoot(h.config), { logger: createLogger({ level: 'silent', name: 'coordinator-api' }) });
      replicaUrl = await listen(replica, 0, '127.0.0.1');
    });

    it('serves the events the other replica published, and its close ends its open streams instead of hanging', async () => {
      const client = await connect(replicaUrl);
      const task = await createTask();
      const events = await readUntil(client, 'task_state', String(task.id));
      expect(events[events.length - 1].data).toEqual({ task_id: task.id, previous_state: null, state: 'live' });

      await replica.close();
      await client.end();
      expect(client.ended).toBe(true);
    });
  });

  describe('CORS for browsers on other origins', () => {
    it('allows cross-origin reads of public GET routes and the event stream, with a preflight', async () => {
      const tasks = await fetch(`${h.url}/api/v1/tasks`, { headers: { origin: 'http://ui.test' } });
      expect(tasks.status).toBe(200);
      expect(tasks.headers.get('access-control-allow-origin')).toBe('*');
      expect(tasks.headers.get('access-control-allow-credentials')).toBeNull();

      const stream = await connect(h.url, { origin: 'http://ui.test' });
      expect(stream.response.headers['access-control-allow-origin']).toBe('*');

      const preflight = await fetch(`${h.url}/api/v1/events`, {
        method: 'OPTIONS',
        headers: { origin: 'http://ui.test', 'access-control-request-method': 'GET', 'access-control-request-headers': 'last-event-id' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
      expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, HEAD');
      expect(preflight.headers.get('access-control-allow-headers')).toBe('Last-Event-ID');
    });

    it('leaves signed and admin routes as they were: no CORS header, no preflight for writes', async () => {
      const submissions = await fetch(`${h.url}/api/v1/submissions`, { headers: { origin: 'http://ui.test', 'x-admin-token': h.adminToken } });
      expect(submissions.status).toBe(200);
      expect(submissions.headers.get('access-control-allow-origin')).toBeNull();

      const preflight = await fetch(`${h.url}/api/v1/tasks`, {
        method: 'OPTIONS',
        headers: { origin: 'http://ui.test', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-admin-token' },
      });
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    });
  });
});
