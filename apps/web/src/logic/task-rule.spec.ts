import type { BestResultChangeDto } from '@rcs/contracts';
import { RankingMode } from '@rcs/contracts/ranking';
import { bandReplacement, beats, rankByRule, ruleText, taskRule } from './task-rule';
import { TERNARY_RULE } from './ternary-rule.fixture';

const ternary = TERNARY_RULE;

describe('the task rule as the coordinator applies it', () => {
  it('lets a result inside the band win on the secondary metric, and one beyond it win on the primary alone', () => {
    expect(beats(ternary, { metric: 30.3, secondary: 1800 }, { metric: 30.0, secondary: 2305 })).toBe(true);
    expect(beats(ternary, { metric: 30.0, secondary: 2305 }, { metric: 30.3, secondary: 1800 })).toBe(false);
    expect(beats(ternary, { metric: 29.0, secondary: 5000 }, { metric: 30.0, secondary: 2305 })).toBe(true);
    expect(beats(ternary, { metric: 31.0, secondary: 100 }, { metric: 30.0, secondary: 2305 })).toBe(false);
  });

  it('ranks by the rule and reads it in words', () => {
    const rows = [
      { id: 'a', metric: 30.0, secondary: 2305 },
      { id: 'b', metric: 30.3, secondary: 1800 },
      { id: 'c', metric: 29.0, secondary: 4000 },
    ];
    expect(rankByRule(rows, ternary, (r) => r).map((r) => r.id)).toEqual(['c', 'b', 'a']);
    expect(ruleText(ternary)).toBe('heldout_ppl (minimize); within 0.02 nats the smaller compressed_bytes wins');
    const pareto = { ...ternary, rankingMode: RankingMode.Pareto };
    expect(ruleText(pareto)).toBe('heldout_ppl (minimize) and compressed_bytes (minimize), Pareto: no worse on either (within 0.02 nats), better on one');
    expect(ruleText(taskRule({ metric_name: 'mse', metric_direction: 'minimize', metric_resolution: 0 } as never))).toBe('mse (minimize)');
  });

  it('says why a best that is worse on the primary replaced another: inside the band, better on the secondary', () => {
    const change = (submission: string, ppl: number, bytes: number, at: string, previous: [string, number] | null) =>
      ({
        task_id: 't',
        submission_id: submission,
        miner_hotkey: 'm',
        metric_value: ppl,
        secondary_metric_value: bytes,
        previous_submission_id: previous?.[0] ?? null,
        previous_metric_value: previous?.[1] ?? null,
        changed_at: at,
      }) as BestResultChangeDto;
    const history = [change('first', 30.0, 2305, '2026-01-01T00:00:01Z', null), change('smaller', 30.3, 1800, '2026-01-01T00:00:02Z', ['first', 30.0]), change('better', 25, 3000, '2026-01-01T00:00:03Z', ['smaller', 30.3])];
    expect(history.map((c) => bandReplacement(ternary, c, history))).toEqual([
      null,
      'within the 0.02 nats band of the best it replaced (heldout_ppl 30), with compressed_bytes 1800 instead of 2305',
      null,
    ]);
  });
});
