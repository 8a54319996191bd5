import { scanResponseProblems, verificationListProblems, verificationSummaryProblems } from './validator-answers.check';

const verification = {
  id: 'v-1',
  submission_id: 's-1',
  job_id: 'j-1',
  task_id: 't-1',
  validator_hotkey: '5F',
  status: 'accepted',
  metric_name: 'loss',
  metric_value: 0.5,
  observed_metrics: { loss: 0.5 },
  notes: null,
  created_at: '2026-01-01T00:00:00.000Z',
  added_later: true,
};

describe('validator answers against their contract DTOs', () => {
  it('accepts conforming documents, unknown properties included', () => {
    expect(verificationSummaryProblems(verification)).toEqual([]);
    expect(verificationListProblems([verification, { ...verification, metric_value: null, status: 'pending' }])).toEqual([]);
    const job = { job_id: 'j-1', submission_id: 's-1', lease_expires_at: 'x', submission: {}, task: {}, replay_spec: {}, detail: {} };
    expect(scanResponseProblems({ jobs: [job] })).toEqual([]);
    expect(scanResponseProblems({ jobs: [] })).toEqual([]);
  });

  it('names each broken field', () => {
    expect(verificationSummaryProblems({ ...verification, status: 'done', metric_value: 'x', job_id: 3 })).toEqual([
      'job_id must be a string',
      'status must be one of accepted, rejected, error, pending',
      'metric_value must be a number or null',
    ]);
    expect(verificationListProblems({})).toEqual(['the verifications must be a JSON array']);
    expect(verificationListProblems([{ ...verification, notes: 1 }])).toEqual(['[0].notes must be a string or null']);
    expect(scanResponseProblems({ jobs: [{ job_id: 'j', submission_id: 's', lease_expires_at: 'x', submission: {}, task: {}, detail: {} }] })).toEqual([
      'jobs[0].replay_spec must be an object',
    ]);
    expect(scanResponseProblems([])).toEqual(['the scan answer must be a JSON object']);
  });
});
