import { MaintenanceJob, QueueName } from '@rcs/contracts';
import { JobQueue, JobWorkers } from '@rcs/queue';
import { metricValue, scrapeMetrics } from '@rcs/testing';
import { CoordinatorHarness, startCoordinator } from './harness';
import { acceptResult, insertPendingSubmission, insertRankedTask } from './support/best-results-rows';
import { until } from './support/until';

const MINER = '5GrwvaDNjYXWZkpwjHdtSUsChfDKyYqoX4qWBMqKFyrjqwq8';

/** /metrics (DECISIONS §14): HTTP histograms by route template, queue depth and age, domain counters. */
describe('coordinator /metrics', () => {
  let h: CoordinatorHarness;

  beforeAll(async () => {
    h = await startCoordinator({ SNAPSHOT_CHECK_INTERVAL_SECONDS: '3600', LEASE_SWEEP_INTERVAL_SECONDS: '3600' });
  });

  afterAll(() => h.close());

  it('times requests by route template and status, never by raw URL', async () => {
    const taskId = await insertRankedTask(h.db);
    const route = { method: 'GET', route: '/api/v1/tasks/:task_id', status_code: '200' };
    const before = metricValue(await scrapeMetrics(h.url), 'http_request_duration_seconds_count', route) ?? 0;
    for (let i = 0; i < 3; i++) expect((await fetch(`${h.url}/api/v1/tasks/${taskId}`)).status).toBe(200);
    expect((await fetch(`${h.url}/no/such/${taskId}`)).status).toBe(404);
    const text = await scrapeMetrics(h.url);
    expect(metricValue(text, 'http_request_duration_seconds_count', route)).toBe(before + 3);
    expect(metricValue(text, 'http_request_duration_seconds_count', { route: '(unmatched)', status_code: '404' })).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain(taskId);
  });

  it('counts decisions by status and best changes when a submission is decided', async () => {
    const before = await scrapeMetrics(h.url);
    const taskId = await insertRankedTask(h.db);
    const submission = await insertPendingSubmission(h.db, { taskId, minerHotkey: MINER });
    await acceptResult(h, taskId, submission, { metric: 0.5 });
    const after = await scrapeMetrics(h.url);
    expect(metricValue(after, 'coordinator_decisions_total', { status: 'accepted' })).toBe((metricValue(before, 'coordinator_decisions_total', { status: 'accepted' }) ?? 0) + 1);
    expect(metricValue(after, 'coordinator_best_changes_total')).toBe((metricValue(before, 'coordinator_best_changes_total') ?? 0) + 1);
  });

  it('reports queue depth and the oldest waiting job at scrape time, and the lease sweep once it ran', async () => {
    const workers = h.app.get(JobWorkers);
    const jobs = h.app.get(JobQueue);
    await workers.pause(QueueName.Maintenance);
    const waiting = { queue: QueueName.Maintenance, state: 'waiting' };
    const before = metricValue(await scrapeMetrics(h.url), 'bullmq_queue_jobs', waiting) ?? 0;
    await jobs.add(QueueName.Maintenance, MaintenanceJob.ExpireLeases, {});
    const queued = await until(
      'the waiting job ages',
      () => scrapeMetrics(h.url),
      (text) => (metricValue(text, 'bullmq_queue_oldest_waiting_seconds', { queue: QueueName.Maintenance }) ?? 0) > 0,
    );
    expect(metricValue(queued, 'bullmq_queue_jobs', waiting)).toBe(before + 1);

    workers.resume(QueueName.Maintenance);
    const swept = await until(
      'the queue drained',
      () => scrapeMetrics(h.url),
      (text) => metricValue(text, 'bullmq_queue_jobs', waiting) === before,
    );
    expect(metricValue(swept, 'coordinator_leases_expired_total', { result: 'returned' })).toBe(0);
  });

  it('is not readable cross-origin like the public routes', async () => {
    const response = await fetch(`${h.url}/metrics`, { headers: { origin: 'http://ui.test' } });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});
