import { VerificationStatus, VerifyDto } from '@rcs/contracts';
import { observedNumber, resultViolations, sameResult, toObservedResult } from './observed-result';

function body(fields: Partial<VerifyDto>): VerifyDto {
  return Object.assign(new VerifyDto(), { status: VerificationStatus.Accepted, ...fields });
}

const METRICS = { metricName: 'loss', secondaryMetricName: 'size' };

describe('observedNumber', () => {
  it.each([
    [{ loss: 1.5 }, 'loss', 1.5],
    [{ loss: 0 }, 'loss', 0],
    [{ loss: '1.5' }, 'loss', null],
    [{ loss: null }, 'loss', null],
    [{ loss: Infinity }, 'loss', null],
    [{}, 'loss', null],
    [{ loss: 1 }, null, null],
    [{}, 'toString', null],
  ])('%p[%p] is %p', (observed, name, expected) => {
    expect(observedNumber(observed, name)).toBe(expected);
  });

  it('reads finite numbers only', () => {
    expect(observedNumber({ loss: 0.5 }, 'loss')).toBe(0.5);
    expect(observedNumber({ loss: '0.5' }, 'loss')).toBeNull();
    expect(observedNumber({ loss: Infinity }, 'loss')).toBeNull();
    expect(observedNumber({}, 'loss')).toBeNull();
    expect(observedNumber({ loss: 1 }, null)).toBeNull();
  });

  it('never reads inherited properties', () => {
    expect(observedNumber({}, 'constructor')).toBeNull();
  });
});

describe('resultViolations', () => {
  it('accepts an accepted result with a finite task metric', () => {
    expect(resultViolations(body({ observed_metrics: { loss: 0 } }), METRICS)).toEqual([]);
  });

  it('needs the task metric for accepted, at its place in the body', () => {
    expect(resultViolations(body({ observed_metrics: { size: 3 } }), METRICS)).toMatchObject([
      { type: 'missing', loc: ['body', 'observed_metrics', 'loss'] },
    ]);
  });

  it('needs a finite number, not a string or a null', () => {
    for (const value of ['0.5', null, true, Infinity]) {
      expect(resultViolations(body({ observed_metrics: { loss: value } }), METRICS)).toMatchObject([
        { type: 'finite_number', loc: ['body', 'observed_metrics', 'loss'], input: value },
      ]);
    }
  });

  it('asks nothing of rejected and error results', () => {
    expect(resultViolations(body({ status: VerificationStatus.Rejected }), METRICS)).toEqual([]);
    expect(resultViolations(body({ status: VerificationStatus.Error, observed_metrics: { loss: 'n/a' } }), METRICS)).toEqual([]);
  });
});

describe('sameResult', () => {
  const recorded = toObservedResult(body({ observed_metrics: { loss: 0.5, nested: { a: [1, 2], b: null } }, notes: 'ok', replay_log: 'log' }));

  it('matches the same values whatever the key order', () => {
    const posted = toObservedResult(body({ observed_metrics: { nested: { b: null, a: [1, 2] }, loss: 0.5 }, notes: 'ok', replay_log: 'log' }));
    expect(sameResult(recorded, posted)).toBe(true);
  });

  it('compares observed metrics as stored JSON (an overflowing number is stored as null)', () => {
    const stored = toObservedResult(body({ observed_metrics: { loss: 1, big: Infinity } }));
    expect(stored.observedMetrics).toEqual({ loss: 1, big: null });
    expect(sameResult(stored, toObservedResult(body({ observed_metrics: { loss: 1, big: Infinity } })))).toBe(true);
  });

  it.each([
    ['status', { status: VerificationStatus.Rejected }],
    ['a metric', { observed_metrics: { loss: 0.6, nested: { a: [1, 2], b: null } } }],
    ['array order', { observed_metrics: { loss: 0.5, nested: { a: [2, 1], b: null } } }],
    ['notes', { notes: null }],
    ['replay log', { replay_log: 'other' }],
  ])('tells a different %s apart', (_what, change) => {
    const posted = toObservedResult(
      body({ observed_metrics: { loss: 0.5, nested: { a: [1, 2], b: null } }, notes: 'ok', replay_log: 'log', ...change }),
    );
    expect(sameResult(recorded, posted)).toBe(false);
  });
});
