import { Client } from 'pg';
import { ReadReplicas } from '@rcs/persistence';
import { metricValue, PostgresReplica, PostgresServer, scrapeMetrics, startPostgresServer } from '@rcs/testing';
import { CoordinatorHarness } from './harness';
import { expectStatus } from './submissions-fixtures';
import { until } from './support/until';
import { Cast, cast, startValidationCoordinator, ValidationClient } from './validator-jobs-fixtures';

/**
 * COORDINATOR_DATABASE_REPLICA_URLS against a real streaming replica (DECISIONS §19): a Postgres of
 * this file's own and a hot standby made from it with `pg_basebackup -R`. The public lag-tolerant
 * reads run on the replica; writes and the signed routes on the primary; with the replica stopped the
 * reads fall back to the primary, and return to the replica once it is back. `nx run tools:test-cluster`.
 */
describe('coordinator reads on a Postgres streaming replica', () => {
  let pg: PostgresServer;
  let replica: PostgresReplica;
  let people: Cast;
  let h: CoordinatorHarness;
  let api: ValidationClient;
  let replicas: ReadReplicas;

  beforeAll(async () => {
    [pg, people] = await Promise.all([startPostgresServer(), cast()]);
    await pg.createDatabase('coordinator');
    replica = await pg.startReplica();
    h = await startValidationCoordinator(people, {
      COORDINATOR_DATABASE_URL: pg.databaseUrl('coordinator'),
      COORDINATOR_DATABASE_REPLICA_URLS: replica.databaseUrl('coordinator'),
    });
    api = new ValidationClient(h);
    replicas = h.app.get(ReadReplicas);
  }, 180_000);

  afterAll(async () => {
    await h?.close();
    await pg?.destroy();
  });

  /** The connections an application name holds on a server. */
  async function connections(port: number, applicationName: string): Promise<number> {
    const client = new Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
    await client.connect();
    try {
      const result = await client.query<{ n: string }>('SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = $1', [applicationName]);
      return Number(result.rows[0].n);
    } finally {
      await client.end();
    }
  }

  /** The public reads DECISIONS §19 sends to replicas, one of each. */
  async function publicReads(taskId: string, hotkey: string): Promise<void> {
    expectStatus(await api.anonymous('GET', '/api/v1/tasks?limit=5'), 200);
    expectStatus(await api.anonymous('GET', '/api/v1/dashboard'), 200);
    expectStatus(await api.anonymous('GET', `/api/v1/tasks/${taskId}/best/history`), 200);
    expectStatus(await api.anonymous('GET', `/api/v1/miners/${hotkey}/results`), 200);
  }

  it('serves the public reads from the replica, the writes and signed routes from the primary', async () => {
    const task = await api.createTask();
    // The replica shows the task once it has replayed the primary's WAL.
    await until('the replica has the task', () => api.anonymous<{ id: string }[]>('GET', '/api/v1/tasks?limit=100'), (r) => r.status === 200 && r.body.some((t) => t.id === task.id));

    const before = replicas.counts;
    const rounds = 10;
    for (let i = 0; i < rounds; i += 1) await publicReads(task.id, people.dave.hotkey);
    const afterReads = replicas.counts;
    expect(afterReads.replica - before.replica).toBe(4 * rounds);
    expect(afterReads.primary - before.primary).toBe(0);
    expect(await connections(replica.port, 'coordinator-api:replica')).toBeGreaterThan(0);
    expect(await connections(pg.port, 'coordinator-api:replica')).toBe(0);

    // A claim, a submission and a validator's scan write (a read-only standby would refuse them) and are not routed.
    const submission = await api.pending(people.dave, task.id);
    expect((await api.leased(people.alice, { limit: 5 })).map((job) => job.submission_id)).toContain(submission.id);
    expect(replicas.counts).toEqual(afterReads);
    // Operators see the same counts on /metrics.
    const metrics = await scrapeMetrics(h.url);
    expect(metricValue(metrics, 'db_routed_reads_total', { target: 'replica' })).toBe(afterReads.replica);
    expect(metricValue(metrics, 'db_routed_reads_total', { target: 'primary' })).toBe(afterReads.primary);
    process.stdout.write(`read replicas: ${afterReads.replica - before.replica} public reads on the replica, ${afterReads.primary - before.primary} on the primary\n`);
  });

  it('falls back to the primary while the replica is stopped, and returns to it once it is back', async () => {
    const task = await api.createTask();
    await replica.stop();
    const stoppedAt = Date.now();
    const before = replicas.counts;
    expectStatus(await api.anonymous('GET', '/api/v1/dashboard'), 200);
    const firstFallbackMs = Date.now() - stoppedAt;
    // The fallback read is fresh: the primary has what the replica may not.
    const list = await api.anonymous<{ id: string }[]>('GET', '/api/v1/tasks?limit=100');
    expect(list.body.some((t) => t.id === task.id)).toBe(true);
    const fallback = replicas.counts;
    expect(fallback.primary - before.primary).toBe(2);
    expect(fallback.replica).toBe(before.replica);
    const skippedStarted = Date.now();
    expectStatus(await api.anonymous('GET', '/api/v1/dashboard'), 200);
    const skippedMs = Date.now() - skippedStarted;

    await replica.start();
    const restartedAt = Date.now();
    await until('reads are on the replica again', async () => {
      await api.anonymous('GET', '/api/v1/dashboard');
      return replicas.counts.replica;
    }, (served) => served > fallback.replica, 30_000, 200);
    const backMs = Date.now() - restartedAt;
    process.stdout.write(`read replicas: first read after the stop ${firstFallbackMs} ms (on the primary), later ones ${skippedMs} ms; back on the replica ${backMs} ms after its restart\n`);
  }, 120_000);
});
