import { BtAuthSigner } from '@rcs/auth';
import { metricValue, scrapeMetrics, SseClient, type SseEvent } from '@rcs/testing';
import { PoolClient, PoolHarness, signer, startPool } from './support/harness';
import { seed } from './support/mining';

/** The pool's GET /api/v1/events (DECISIONS §14): result_verified and sota_changed after commit, resumable. */
describe('pool event stream', () => {
  let h: PoolHarness;
  let api: PoolClient;
  let validator: BtAuthSigner;
  const clients: SseClient[] = [];

  const connect = async (headers: Record<string, string> = {}): Promise<SseClient> => {
    const client = await SseClient.connect(`${h.url}/api/v1/events`, headers);
    clients.push(client);
    return client;
  };

  /** A pending result of a fresh seed algorithm of `taskType`; its id. */
  const pendingResult = async (taskType: string, score: number): Promise<number> => {
    const [algorithm] = (await seed(h, taskType, [`events ${taskType} ${score} ${Math.random()}`])).slice(-1);
    const rows = (await h.db.dataSource.query(
      `INSERT INTO results (algorithm_id, task_type, score, evaluations, status) VALUES ($1, $2, $3, 3, 'pending') RETURNING id`,
      [algorithm, taskType, score],
    )) as { id: number }[];
    return rows[0].id;
  };

  const verify = async (resultId: number) => {
    const reply = await api.signed(validator, 'POST', `/api/v1/results/verify/${resultId}`);
    expect(reply.status).toBe(200);
  };

  const brief = (event: SseEvent) => [event.event, (event.data as { result_id: number }).result_id];

  beforeAll(async () => {
    validator = await signer('//Pool//events-validator');
    h = await startPool({ VALIDATOR_HOTKEYS: validator.hotkey });
    api = new PoolClient(h.url);
  });

  afterAll(async () => {
    for (const client of clients) client.close();
    await h.close();
  });

  it('announces verified results and SOTA raises, and resumes with Last-Event-ID without a gap or a repeat', async () => {
    const first = await connect();
    const a = await pendingResult('events_a', 0.5);
    await verify(a);
    const seen = await first.take(2);
    expect(seen.map(brief)).toEqual([
      ['result_verified', a],
      ['sota_changed', a],
    ]);
    expect(seen[0].data).toEqual({ result_id: a, task_type: 'events_a', miner_hotkey: null, score: 0.5, verified_at: expect.any(String) });
    expect(seen[1].data).toEqual({ task_type: 'events_a', sota_threshold: 0.5, result_id: a });
    first.close();

    // While disconnected: a result below the threshold (no SOTA change), one above, and a repeated verify (no event).
    const low = await pendingResult('events_a', 0.4);
    const high = await pendingResult('events_a', 0.9);
    await verify(low);
    await verify(high);
    await verify(high);

    // The same moments counted on /metrics, and the verify route timed by its template.
    const metrics = await scrapeMetrics(h.url);
    expect(metricValue(metrics, 'pool_results_verified_total')).toBe(3);
    expect(metricValue(metrics, 'pool_sota_changes_total')).toBe(2);
    expect(metricValue(metrics, 'http_request_duration_seconds_count', { method: 'POST', route: '/api/v1/results/verify/:result_id', status_code: '200' })).toBe(4);

    const second = await connect({ 'last-event-id': seen[1].id });
    expect((await second.take(3)).map(brief)).toEqual([
      ['result_verified', low],
      ['result_verified', high],
      ['sota_changed', high],
    ]);
    const next = await pendingResult('events_b', 0.1);
    await verify(next);
    expect((await second.take(2)).map(brief)).toEqual([
      ['result_verified', next],
      ['sota_changed', next],
    ]);
  });

  it('is readable from other origins, like the pool\'s other public GET routes', async () => {
    const client = await connect({ origin: 'http://ui.test' });
    expect(client.response.headers['access-control-allow-origin']).toBe('*');
    const sota = await fetch(`${h.url}/api/v1/results/sota`, { headers: { origin: 'http://ui.test' } });
    expect(sota.headers.get('access-control-allow-origin')).toBe('*');
    const signedRoute = await fetch(`${h.url}/api/v1/results/`, { headers: { origin: 'http://ui.test' } });
    expect(signedRoute.status).toBe(401);
    expect(signedRoute.headers.get('access-control-allow-origin')).toBeNull();
  });
});
