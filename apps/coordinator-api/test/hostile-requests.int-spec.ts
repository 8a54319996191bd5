import { CoordinatorHarness, startCoordinatorForSuite } from './harness';
import { expectStatus, itemsOf, Reply, TestClient } from './submissions-fixtures';

/**
 * Issue 9 §4 against the real coordinator: hostile bodies and URLs get a DECISIONS.md §1 answer
 * (422, 404, 415), never a 500 and never a silent success.
 */
describe('hostile requests', () => {
  let h: CoordinatorHarness;
  let api: TestClient;

  const nested = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;
  const task = {
    slug: 'hostile-task',
    title: 'Hostile task',
    repository: 'https://git.test/research/task.git',
    base_ref: 'main',
    benchmark_command: 'python bench.py',
    metric_name: 'loss',
    metric_direction: 'minimize',
    time_budget_seconds: 600,
  };
  /** Sends raw JSON text as an admin, so bodies no JSON.stringify would write can be sent. */
  const adminRaw = async (method: string, path: string, text: string, contentType = 'application/json'): Promise<Reply<unknown>> => {
    const response = await fetch(`${h.url}${path}`, { method, body: text, headers: { 'content-type': contentType, 'x-admin-token': h.adminToken } });
    const body = await response.text();
    return { status: response.status, body: JSON.parse(body) as unknown, text: body, headers: response.headers };
  };
  const taskCount = async (): Promise<number> => {
    const rows = (await h.db.dataSource.query(`SELECT count(*)::int AS n FROM tasks`)) as { n: number }[];
    return rows[0].n;
  };

  startCoordinatorForSuite({}, (started) => {
    h = started;
    api = new TestClient(h);
  });

  it('answers 422 json_too_deep, not 500, for 10,000 nested arrays anywhere in a body, on every route', async () => {
    const bodies: [string, string, string][] = [
      ['POST', '/api/v1/tasks', JSON.stringify(task).replace(/}$/, `, "extra": ${nested(10_000)}}`)],
      ['POST', '/api/v1/tasks', JSON.stringify(task).replace(/}$/, `, "validator_benchmark_env": {"A": ${nested(10_000)}}}`)],
      ['PUT', '/api/v1/reward-policy', `{"version": 2, "competition_overrides": {"hostile-task": {"weight": ${nested(10_000)}}}}`],
      ['POST', '/api/v1/planner/run', nested(10_000)],
    ];
    for (const [method, path, text] of bodies) {
      const reply = await adminRaw(method, path, text);
      expect({ path, items: itemsOf(reply) }).toEqual({ path, items: [['json_too_deep', 'body']] });
    }
    expect(await taskCount()).toBe(0);
  });

  it('refuses reserved property names instead of dropping them, and keeps none of them as env names', async () => {
    for (const key of ['__proto__', 'constructor', 'prototype', 'toString']) {
      const extra = await adminRaw('POST', '/api/v1/tasks', JSON.stringify(task).replace(/}$/, `, "${key}": {"x": 1}}`));
      expect({ key, items: itemsOf(extra) }).toEqual({ key, items: [['extra_forbidden', `body.${key}`]] });
      const env = await adminRaw('POST', '/api/v1/tasks', JSON.stringify({ ...task, validator_benchmark_env: { SEED: '1' } }).replace('"SEED"', `"${key}": "v", "SEED"`));
      expect({ key, items: itemsOf(env) }).toEqual({ key, items: [['extra_forbidden', `body.validator_benchmark_env.${key}`]] });
    }
    expect(await taskCount()).toBe(0);
  });

  it('answers 415 unsupported_media_type for a body that is not JSON', async () => {
    const reply = await adminRaw('POST', '/api/v1/tasks', 'slug=x', 'application/x-www-form-urlencoded');
    expectStatus(reply, 415);
    expect(reply.body).toEqual({ detail: { error: 'unsupported_media_type', message: expect.any(String) } });
  });

  it('answers 404 in the detail shape for an id over the router limit and for bad percent-encoding', async () => {
    for (const path of [`/api/v1/tasks/${'a'.repeat(101)}`, `/api/v1/tasks/${'a'.repeat(5000)}/onboard.md`, '/api/v1/tasks/%E0%A4%A', '/api/v1/submissions/%zz']) {
      const reply = await api.anonymous('GET', path);
      expect({ path: path.slice(0, 40), status: reply.status }).toEqual({ path: path.slice(0, 40), status: 404 });
      expect(reply.body).toEqual({ detail: { error: 'not_found', message: expect.any(String) } });
    }
  });

  it('answers 431 in the detail shape for oversized headers', async () => {
    const reply = await fetch(`${h.url}/api/v1/tasks`, { headers: { 'x-padding': 'a'.repeat(32_000) } });
    expect(reply.status).toBe(431);
    expect(await reply.json()).toEqual({ detail: { error: 'request_headers_too_large', message: expect.any(String) } });
  });
});
