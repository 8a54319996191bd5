import { SubmissionStatus, VerificationStatus } from '@rcs/contracts';
import { median, peerDecision, peerEvaluationViolations, PeerVerdicts } from './peer-evaluation.rules';

const accepted = (...metrics: number[]): PeerVerdicts['accepted'] => metrics.map((metric) => ({ metric, secondary: null }));

describe('median', () => {
  it.each([
    [[], null],
    [[7], 7],
    [[3, 1, 2], 2],
    [[4, 1, 3, 2], 2.5],
    [[10, -2], 4],
    [[5, 5, 1, 9, 9], 5],
  ])('of %p is %p', (values, expected) => {
    expect(median(values)).toBe(expected);
  });

  it('sorts numerically, not as strings', () => {
    expect(median([100, 9, 20])).toBe(20);
  });
});

describe('peerDecision', () => {
  it('stays undecided while every count is below the threshold', () => {
    expect(peerDecision({ accepted: accepted(1, 2), rejected: 2, error: 2 }, 3)).toBeNull();
  });

  it('accepts at the threshold with the median metric (mean of the middle two for an even count)', () => {
    expect(peerDecision({ accepted: accepted(3, 1, 2), rejected: 0, error: 0 }, 3)).toEqual({
      status: SubmissionStatus.Accepted,
      metric: 2,
      secondary: null,
    });
    expect(peerDecision({ accepted: accepted(4, 1), rejected: 1, error: 0 }, 2)).toEqual({ status: SubmissionStatus.Accepted, metric: 2.5, secondary: null });
  });

  it('takes the median secondary only when every accepted evaluation reported one', () => {
    const all = [
      { metric: 1, secondary: 10 },
      { metric: 2, secondary: 30 },
    ];
    expect(peerDecision({ accepted: all, rejected: 0, error: 0 }, 2)).toMatchObject({ secondary: 20 });
    expect(peerDecision({ accepted: [...all, { metric: 3, secondary: null }], rejected: 0, error: 0 }, 3)).toMatchObject({ metric: 2, secondary: null });
  });

  it('rejects or errors when that count reaches the threshold', () => {
    expect(peerDecision({ accepted: accepted(1), rejected: 2, error: 0 }, 2)).toEqual({ status: SubmissionStatus.Rejected });
    expect(peerDecision({ accepted: [], rejected: 1, error: 2 }, 2)).toEqual({ status: SubmissionStatus.Error });
  });

  it('decides on the first evaluation when the threshold is 1', () => {
    expect(peerDecision({ accepted: accepted(0.5), rejected: 0, error: 0 }, 1)).toMatchObject({ status: SubmissionStatus.Accepted, metric: 0.5 });
  });
});

describe('peerEvaluationViolations', () => {
  const body = (status: VerificationStatus, observed: Record<string, unknown>, notes: string | null = null) => ({
    status,
    observed_metrics: observed,
    notes,
  });
  const shape = (items: ReturnType<typeof peerEvaluationViolations>) => items.map((item) => [item.type, item.loc.join('.')]);

  it('accepts an accepted evaluation with a finite task metric, and rejections without one', () => {
    expect(peerEvaluationViolations(body(VerificationStatus.Accepted, { loss: 1.25, other: 'x' }), 'loss')).toEqual([]);
    expect(peerEvaluationViolations(body(VerificationStatus.Rejected, {}), 'loss')).toEqual([]);
    expect(peerEvaluationViolations(body(VerificationStatus.Error, { loss: 'n/a' }), 'loss')).toEqual([]);
  });

  it('requires the task metric of an accepted evaluation, as a finite number', () => {
    expect(shape(peerEvaluationViolations(body(VerificationStatus.Accepted, { accuracy: 1 }), 'loss'))).toEqual([['missing', 'body.observed_metrics.loss']]);
    const notNumber = peerEvaluationViolations(body(VerificationStatus.Accepted, { loss: '1.0' }), 'loss');
    expect(notNumber).toEqual([
      { type: 'finite_number', loc: ['body', 'observed_metrics', 'loss'], msg: 'Input should be a finite number', input: '1.0' },
    ]);
    expect(shape(peerEvaluationViolations(body(VerificationStatus.Accepted, { loss: null }), 'loss'))).toEqual([['finite_number', 'body.observed_metrics.loss']]);
  });

});
