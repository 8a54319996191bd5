import { BestResultChangeDto, BestResultDto, MetricDirection } from '@rcs/contracts';
import { CoordinatorHarness, startCoordinatorForSuite } from './harness';
import { acceptResult, insertPendingSubmission, insertRankedTask } from './support/best-results-rows';

/**
 * 20 results for different submissions of one task decided at once, each in its own transaction that
 * follows the decision protocol (task row FOR UPDATE first): the best is the one a sequential order
 * gives. With distinct values and resolution 0 that best is order-independent: the extreme value.
 */
describe('best results under concurrent decisions', () => {
  let h: CoordinatorHarness;
  startCoordinatorForSuite({}, (started) => (h = started));

  async function get<T>(path: string): Promise<T> {
    return (await (await fetch(`${h.url}${path}`)).json()) as T;
  }

  /** 1..20 in a scrambled but fixed order (7 is coprime with 20). */
  const values = Array.from({ length: 20 }, (_, i) => ((i * 7) % 20) + 1);

  it.each([
    [MetricDirection.Maximize, 20],
    [MetricDirection.Minimize, 1],
  ])('%s: 20 simultaneous results leave exactly the best a sequential order would (%d)', async (direction, expected) => {
    const taskId = await insertRankedTask(h.db, { direction, resolution: 0 });
    const submissions = await Promise.all(values.map((value) => insertPendingSubmission(h.db, { taskId, minerHotkey: `miner-${value}` })));

    const decisions = await Promise.all(submissions.map((submissionId, i) => acceptResult(h, taskId, submissionId, { metric: values[i] })));

    const best = await get<BestResultDto>(`/api/v1/tasks/${taskId}/best`);
    expect(best).toMatchObject({ metric_value: expected, submission_id: submissions[values.indexOf(expected)], miner_hotkey: `miner-${expected}` });

    // History: one row per replacement, each strictly better than and chained to the one before.
    const history = await get<BestResultChangeDto[]>(`/api/v1/tasks/${taskId}/best/history?limit=1000`);
    expect(history).toHaveLength(decisions.filter((decision) => decision.replaced).length);
    expect(history[0]).toMatchObject({ previous_submission_id: null, previous_metric_value: null });
    for (let i = 1; i < history.length; i++) {
      const gain = direction === MetricDirection.Maximize ? history[i].metric_value - history[i - 1].metric_value : history[i - 1].metric_value - history[i].metric_value;
      expect(gain).toBeGreaterThan(0);
      expect(history[i]).toMatchObject({ previous_submission_id: history[i - 1].submission_id, previous_metric_value: history[i - 1].metric_value });
    }
    expect(history[history.length - 1].submission_id).toBe(best.submission_id);

    // Each decision ranked against the best committed just before it.
    for (const decision of decisions.filter((d) => d.replaced)) {
      const change = history.find((row) => row.previous_submission_id === (decision.previous?.submissionId ?? null));
      expect(change).toBeDefined();
    }
  });
});
