import { randomUUID } from 'node:crypto';
import { BestResultChangeDto, BestResultDto, MetricDirection, MetricResolutionMode, RankingMode } from '@rcs/contracts';
import { CoordinatorHarness, startCoordinatorForSuite } from './harness';
import { acceptResult, closeTask, insertPendingSubmission, insertRankedTask, RankedTaskFields } from './support/best-results-rows';

/** The best result of a task (DECISIONS.md §3, §6): ranking rules, history, frozen after close, GET routes. */
describe('best results', () => {
  let h: CoordinatorHarness;
  startCoordinatorForSuite({}, (started) => (h = started));

  async function get<T>(path: string): Promise<{ status: number; body: T }> {
    const response = await fetch(`${h.url}${path}`);
    return { status: response.status, body: (await response.json()) as T };
  }

  /** A task with `rule` and a function that submits and accepts one result on it, as miner `hotkey`. */
  async function competition(rule: RankedTaskFields) {
    const taskId = await insertRankedTask(h.db, rule);
    const accept = async (metric: number, secondary: number | null = null, hotkey = `miner-${metric}`) => {
      const submissionId = await insertPendingSubmission(h.db, { taskId, minerHotkey: hotkey });
      return { submissionId, ...(await acceptResult(h, taskId, submissionId, { metric, secondary })) };
    };
    const best = async () => (await get<BestResultDto>(`/api/v1/tasks/${taskId}/best`)).body;
    const history = async () => (await get<BestResultChangeDto[]>(`/api/v1/tasks/${taskId}/best/history`)).body;
    return { taskId, accept, best, history };
  }

  it('minimize: the first result becomes the best, a lower one replaces it, a higher one does not', async () => {
    const c = await competition({ direction: MetricDirection.Minimize });
    const first = await c.accept(3.5);
    expect(first).toMatchObject({ outcome: 'first_result', replaced: true, previous: null, ideaReward: null });
    const lower = await c.accept(3.25);
    expect(lower).toMatchObject({ outcome: 'beats_by_resolution', replaced: true, previous: { submissionId: first.submissionId, metricValue: 3.5 } });
    const higher = await c.accept(3.3);
    expect(higher).toMatchObject({ outcome: 'not_better', replaced: false, previous: { submissionId: lower.submissionId } });
    const equal = await c.accept(3.25, null, 'miner-equal');
    expect(equal).toMatchObject({ outcome: 'not_better', replaced: false });
    expect(await c.best()).toMatchObject({ submission_id: lower.submissionId, metric_value: 3.25, metric_direction: 'minimize' });
  });

  it('maximize: only a higher value replaces the best', async () => {
    const c = await competition({ direction: MetricDirection.Maximize });
    await c.accept(0.5);
    expect((await c.accept(0.4)).replaced).toBe(false);
    const higher = await c.accept(0.75);
    expect(higher).toMatchObject({ outcome: 'beats_by_resolution', replaced: true });
    expect(await c.best()).toMatchObject({ submission_id: higher.submissionId, metric_value: 0.75, metric_direction: 'maximize' });
  });

  it('absolute resolution: a gain below the resolution is not better, a gain of at least the resolution is', async () => {
    const c = await competition({ direction: MetricDirection.Maximize, resolution: 0.5 });
    await c.accept(10);
    expect(await c.accept(10.25)).toMatchObject({ outcome: 'not_better', replaced: false });
    expect(await c.accept(10.5)).toMatchObject({ outcome: 'beats_by_resolution', replaced: true });
    expect((await c.best()).metric_value).toBe(10.5);
  });

  it('log band: 0.02 nats of perplexity (254 → 250 is not better, 254 → 248 is)', async () => {
    const c = await competition({ metricName: 'heldout_ppl', direction: MetricDirection.Minimize, resolution: 0.02, resolutionMode: MetricResolutionMode.Log });
    const incumbent = await c.accept(254);
    expect(await c.accept(250)).toMatchObject({ outcome: 'not_better', replaced: false });
    expect((await c.best()).submission_id).toBe(incumbent.submissionId);
    const better = await c.accept(248);
    expect(better).toMatchObject({ outcome: 'beats_by_resolution', replaced: true });
    expect(await c.best()).toMatchObject({ submission_id: better.submissionId, metric_name: 'heldout_ppl', metric_value: 248 });
  });

  it('secondary metric: inside the band a strictly better secondary replaces the best, a worse one does not', async () => {
    const c = await competition({
      metricName: 'heldout_ppl',
      direction: MetricDirection.Minimize,
      resolution: 0.02,
      resolutionMode: MetricResolutionMode.Log,
      secondaryName: 'compressed_bytes',
      secondaryDirection: MetricDirection.Minimize,
    });
    await c.accept(254, 1000);
    // Slightly worse perplexity, inside the band, smaller model: the smaller packed model wins.
    const smaller = await c.accept(255, 900);
    expect(smaller).toMatchObject({ outcome: 'secondary_better_within_band', replaced: true });
    // Slightly better perplexity, inside the band, bigger model: not enough.
    expect(await c.accept(251, 950)).toMatchObject({ outcome: 'not_better', replaced: false });
    // Equal secondary inside the band: not strictly better.
    expect(await c.accept(254.5, 900)).toMatchObject({ outcome: 'not_better', replaced: false });
    // Outside the band the primary decides alone, even with a worse secondary.
    const muchBetter = await c.accept(240, 5000);
    expect(muchBetter).toMatchObject({ outcome: 'beats_by_resolution', replaced: true });
    expect((await c.history()).map((change) => [change.metric_value, change.secondary_metric_value])).toEqual([
      [254, 1000],
      [255, 900],
      [240, 5000],
    ]);
  });

  it('pareto: replaces only when at least as good on both metrics and strictly better on one', async () => {
    const c = await competition({
      metricName: 'accuracy',
      direction: MetricDirection.Maximize,
      rankingMode: RankingMode.Pareto,
      secondaryName: 'size_mb',
      secondaryDirection: MetricDirection.Minimize,
    });
    await c.accept(0.8, 100);
    expect(await c.accept(0.9, 120)).toMatchObject({ outcome: 'not_better', replaced: false });
    expect(await c.accept(0.7, 50)).toMatchObject({ outcome: 'not_better', replaced: false });
    expect(await c.accept(0.8, 100, 'miner-same')).toMatchObject({ outcome: 'not_better', replaced: false });
    expect(await c.accept(0.8, 90)).toMatchObject({ outcome: 'pareto_dominates', replaced: true });
    const both = await c.accept(0.85, 90);
    expect(both).toMatchObject({ outcome: 'pareto_dominates', replaced: true });
    expect(await c.best()).toMatchObject({ submission_id: both.submissionId, metric_value: 0.85 });
  });

  it('keeps one history row per change, oldest first, with the values it replaced', async () => {
    const c = await competition({ direction: MetricDirection.Minimize, resolution: 0.1 });
    const a = await c.accept(5, null, 'miner-a');
    await c.accept(4.95, null, 'miner-x');
    const b = await c.accept(4.5, null, 'miner-b');
    await c.accept(4.6, null, 'miner-y');
    const d = await c.accept(4, null, 'miner-d');
    const history = await get<BestResultChangeDto[]>(`/api/v1/tasks/${c.taskId}/best/history`);
    expect(history.status).toBe(200);
    expect(history.body.map((change) => Object.keys(change).sort())).toEqual(
      Array(3).fill(
        [
          'changed_at',
          'metric_value',
          'miner_hotkey',
          'previous_metric_value',
          'previous_submission_id',
          'secondary_metric_value',
          'submission_id',
          'task_id',
        ].sort(),
      ),
    );
    expect(history.body.map(({ changed_at: _at, ...change }) => change)).toEqual([
      { task_id: c.taskId, submission_id: a.submissionId, miner_hotkey: 'miner-a', metric_value: 5, secondary_metric_value: null, previous_submission_id: null, previous_metric_value: null },
      { task_id: c.taskId, submission_id: b.submissionId, miner_hotkey: 'miner-b', metric_value: 4.5, secondary_metric_value: null, previous_submission_id: a.submissionId, previous_metric_value: 5 },
      { task_id: c.taskId, submission_id: d.submissionId, miner_hotkey: 'miner-d', metric_value: 4, secondary_metric_value: null, previous_submission_id: b.submissionId, previous_metric_value: 4.5 },
    ]);
    const changedAt = history.body.map((change) => Date.parse(change.changed_at));
    expect([...changedAt].sort((x, y) => x - y)).toEqual(changedAt);
    // The best's updated_at is when it last changed.
    expect((await c.best()).updated_at).toBe(history.body[2].changed_at);

    const page = await get<BestResultChangeDto[]>(`/api/v1/tasks/${c.taskId}/best/history?limit=1&offset=1`);
    expect(page.body.map((change) => change.submission_id)).toEqual([b.submissionId]);
  });

  it('freezes after close: a submission made after the close never replaces the best, an earlier one still may', async () => {
    const c = await competition({ direction: MetricDirection.Maximize });
    await c.accept(1);
    const madeBefore = await insertPendingSubmission(h.db, { taskId: c.taskId, minerHotkey: 'miner-before' });
    await closeTask(h.db, c.taskId);
    const madeAfter = await insertPendingSubmission(h.db, { taskId: c.taskId, minerHotkey: 'miner-after' });
    // The boundary, to the microsecond: made at the close is after it; a microsecond earlier is before.
    await h.db.dataSource.query(
      `UPDATE submissions s SET created_at = t.closed_at - CASE WHEN s.id = $2 THEN interval '1 microsecond' ELSE interval '0' END
       FROM tasks t WHERE t.id = $1 AND s.id IN ($2, $3)`,
      [c.taskId, madeBefore, madeAfter],
    );

    const late = await acceptResult(h, c.taskId, madeAfter, { metric: 100 });
    expect(late).toMatchObject({ outcome: 'beats_by_resolution', replaced: false, ideaReward: null });
    expect((await c.best()).metric_value).toBe(1);
    expect(await c.history()).toHaveLength(1);

    const early = await acceptResult(h, c.taskId, madeBefore, { metric: 2 });
    expect(early).toMatchObject({ outcome: 'beats_by_resolution', replaced: true });
    expect(await c.best()).toMatchObject({ submission_id: madeBefore, metric_value: 2 });
    expect(await c.history()).toHaveLength(2);
  });

  describe('GET /api/v1/tasks/{task_id}/best', () => {
    it('answers the spec fields, metric_unit null', async () => {
      const c = await competition({ metricName: 'heldout_ppl', direction: MetricDirection.Minimize });
      const { submissionId } = await c.accept(17.5, null, 'miner-shape');
      const reply = await get<BestResultDto>(`/api/v1/tasks/${c.taskId}/best`);
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({
        task_id: c.taskId,
        submission_id: submissionId,
        metric_name: 'heldout_ppl',
        metric_direction: 'minimize',
        metric_unit: null,
        metric_value: 17.5,
        miner_hotkey: 'miner-shape',
        updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/) as unknown,
      });
    });

    it('404s with best_result_not_found while nothing is accepted, and task_not_found for unknown tasks', async () => {
      const taskId = await insertRankedTask(h.db);
      await insertPendingSubmission(h.db, { taskId, minerHotkey: 'miner-pending' });
      const none = await get<{ detail: { error: string; message: string; task_id: string } }>(`/api/v1/tasks/${taskId}/best`);
      expect(none.status).toBe(404);
      expect(none.body.detail).toMatchObject({ error: 'best_result_not_found', task_id: taskId });
      expect(none.body.detail.message).toMatch(/no accepted result yet/);

      for (const unknown of [randomUUID(), 'not-a-uuid']) {
        const reply = await get<{ detail: { error: string } }>(`/api/v1/tasks/${unknown}/best`);
        expect([reply.status, reply.body.detail.error]).toEqual([404, 'task_not_found']);
        const history = await get<{ detail: { error: string } }>(`/api/v1/tasks/${unknown}/best/history`);
        expect([history.status, history.body.detail.error]).toEqual([404, 'task_not_found']);
      }
    });

    it('history is empty before the first accepted result and validates its query', async () => {
      const taskId = await insertRankedTask(h.db);
      expect(await get(`/api/v1/tasks/${taskId}/best/history`)).toEqual({ status: 200, body: [] });
      const bad = await get<{ detail: { loc: string[]; type: string }[] }>(`/api/v1/tasks/${taskId}/best/history?limit=0&page=2`);
      expect(bad.status).toBe(422);
      expect(bad.body.detail.map((item) => [item.loc.join('.'), item.type]).sort()).toEqual([
        ['query.limit', 'greater_than_equal'],
        ['query.page', 'extra_forbidden'],
      ]);
    });

    it('is documented in the OpenAPI description', async () => {
      const { body } = await get<{ paths: Record<string, { get?: { responses: Record<string, unknown> } }> }>('/openapi.json');
      expect(Object.keys(body.paths['/api/v1/tasks/{task_id}/best']?.get?.responses ?? {}).sort()).toEqual(['200', '404']);
      expect(Object.keys(body.paths['/api/v1/tasks/{task_id}/best/history']?.get?.responses ?? {}).sort()).toEqual(['200', '404', '422']);
    });
  });
});
