import type { DashboardDecisionDto, VerificationSummaryDto } from '@rcs/contracts';
import { places, rankAccepted, withMiners } from './ranking';
import { taskRule, type TaskRule } from './task-rule';
import { TERNARY_RULE } from './ternary-rule.fixture';

const plain = (direction: string): TaskRule => taskRule({ metric_name: 'mse', metric_direction: direction, metric_resolution: 0, metric_resolution_mode: 'absolute', ranking_mode: 'scalar', secondary_metric_name: null, secondary_metric_direction: null } as never);

const verification = (submission: string, value: number | null, at: string, status = 'accepted', task = 't1') =>
  ({ id: `v-${submission}-${at}`, submission_id: submission, job_id: 'j', task_id: task, validator_hotkey: 'v', status, metric_name: 'mse', metric_value: value, observed_metrics: {}, notes: null, created_at: at }) as unknown as VerificationSummaryDto;
const decision = (submission: string, value: number | null, at: string, status = 'accepted', task = 't1') =>
  ({ task_id: task, task_slug: 's', submission_id: submission, miner_hotkey: `miner-${submission}`, status, metric_name: 'mse', verified_metric_value: value, decided_at: at }) as unknown as DashboardDecisionDto;

describe('rankAccepted', () => {
  it('ranks a minimised metric lowest first and a maximised one highest first, only accepted results of the task', () => {
    const verifications = [
      verification('a', 0.5, '2026-01-01T00:00:01Z'),
      verification('b', 0.2, '2026-01-01T00:00:02Z'),
      verification('c', 0.1, '2026-01-01T00:00:03Z', 'rejected'),
      verification('d', 0.05, '2026-01-01T00:00:04Z', 'accepted', 'other'),
    ];
    expect(rankAccepted('t1', plain('minimize'), verifications, []).map((r) => r.submission_id)).toEqual(['b', 'a']);
    expect(rankAccepted('t1', plain('maximize'), verifications, []).map((r) => r.submission_id)).toEqual(['a', 'b']);
  });

  it('keeps one row per submission, takes the miner from decisions and adds peer-evaluated results', () => {
    const rows = rankAccepted(
      't1',
      plain('maximize'),
      [verification('a', 0.5, '2026-01-01T00:00:01Z'), verification('a', 0.5, '2026-01-01T00:00:05Z')],
      [decision('a', 0.5, '2026-01-01T00:00:06Z'), decision('p', 0.9, '2026-01-01T00:00:07Z'), decision('r', null, '2026-01-01T00:00:08Z', 'rejected')],
    );
    expect(rows).toEqual([
      { submission_id: 'p', miner_hotkey: 'miner-p', metric_value: 0.9, secondary_value: null, decided_at: '2026-01-01T00:00:07Z' },
      { submission_id: 'a', miner_hotkey: 'miner-a', metric_value: 0.5, secondary_value: null, decided_at: '2026-01-01T00:00:05Z' },
    ]);
  });

  it('breaks ties by the earlier decision and fills unknown miners from another source', () => {
    const rows = rankAccepted('t1', plain('minimize'), [verification('late', 1, '2026-01-02T00:00:00Z'), verification('early', 1, '2026-01-01T00:00:00Z')], []);
    expect(rows.map((r) => r.submission_id)).toEqual(['early', 'late']);
    expect(withMiners(rows, new Map([['late', 'm-late']])).map((r) => r.miner_hotkey)).toEqual([null, 'm-late']);
  });
});

describe('rankAccepted on a task with a secondary metric and a band (the demo ternary task)', () => {
  const ternary = TERNARY_RULE;
  const packed = (submission: string, ppl: number, bytes: number, at: string) =>
    ({ ...verification(submission, ppl, at), metric_name: 'heldout_ppl', observed_metrics: { heldout_ppl: ppl, compressed_bytes: bytes } }) as unknown as VerificationSummaryDto;

  it('ranks the smaller model inside the band above the slightly better one it replaced, with its compressed_bytes', () => {
    const rows = rankAccepted('t1', ternary, [packed('first', 30.0, 2305, '2026-01-01T00:00:01Z'), packed('smaller', 30.3, 1800, '2026-01-01T00:00:02Z'), packed('far', 40, 900, '2026-01-01T00:00:03Z')], []);
    // Before, the page ranked by heldout_ppl alone: first, smaller, far.
    expect(rows.map((r) => [r.submission_id, r.secondary_value])).toEqual([
      ['smaller', 1800],
      ['first', 2305],
      ['far', 900],
    ]);
  });
});

describe('places', () => {
  it('gives equal values one rank and marks them tied; the next rank skips the tied places', () => {
    expect(places([0.9, 0.5, 0.5, 0.1], (v) => v)).toEqual([
      { rank: 1, tied: false },
      { rank: 2, tied: true },
      { rank: 2, tied: true },
      { rank: 4, tied: false },
    ]);
    expect(places([], (v: number) => v)).toEqual([]);
  });
});
