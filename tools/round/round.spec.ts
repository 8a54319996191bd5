import { roundOutcome } from './round';

describe('roundOutcome', () => {
  const ids = { taskId: 't1', submissionId: 's1' };

  it('is ok for an accepted submission, and for one still pending when the round did not wait', () => {
    expect(roundOutcome({ ...ids, status: 'accepted' })).toEqual({ ok: true, line: 'round: ok (task t1, submission s1, accepted)' });
    expect(roundOutcome({ ...ids, status: 'pending_verification' })).toEqual({ ok: true, line: 'round: ok (task t1, submission s1, pending_verification)' });
  });

  it('is not ok for a submission the validator refused (the round used to say ok for a rejected one)', () => {
    for (const status of ['rejected', 'error', 'invalid']) {
      expect(roundOutcome({ ...ids, status })).toEqual({ ok: false, line: `round: not accepted (task t1, submission s1, ${status})` });
    }
  });
});
