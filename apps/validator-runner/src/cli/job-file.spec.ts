import { JobFileError, parseJobFile } from './job-file';

describe('saved job files', () => {
  const spec = {
    repository: 'https://example.test/r.git',
    base_ref: 'main',
    benchmark_command: 'python3 bench.py',
    metric_name: 'loss',
    patch: '',
    allowed_patch_paths: ['train.py'],
    time_budget_seconds: 60,
    max_patch_bytes: 1000,
  };

  it('reads a job as the scan answers it, missing nullable fields read as null', () => {
    const job = parseJobFile(JSON.stringify({ job_id: 'j', submission_id: 's', replay_spec: spec, task: {} }), 'job.json');
    expect(job).toMatchObject({ job_id: 'j', submission_id: 's', replay_spec: { ...spec, base_commit_sha: null, result_path: null, artifact_uri: null, validator_benchmark_env: {} } });
  });

  it('carries the rotation pair of the scan (DECISIONS §15), null when the job has none', () => {
    const rotation = { slot: 7, number: 'ab'.repeat(16) };
    expect(parseJobFile(JSON.stringify({ job_id: 'j', submission_id: 's', replay_spec: spec, heldout_rotation: rotation }), 'job.json').heldout_rotation).toEqual(rotation);
    expect(parseJobFile(JSON.stringify({ job_id: 'j', submission_id: 's', replay_spec: spec }), 'job.json').heldout_rotation).toBeNull();
    expect(() => parseJobFile(JSON.stringify({ job_id: 'j', submission_id: 's', replay_spec: spec, heldout_rotation: { slot: '7' } }), 'a.json')).toThrow(
      'a.json is not a saved validator job: heldout_rotation must be {slot: integer, number: string} or null',
    );
  });

  it('names every problem of a file that is not a job', () => {
    expect(() => parseJobFile('[]', 'a.json')).toThrow(new JobFileError('a.json is not a JSON object'));
    expect(() => parseJobFile('{', 'a.json')).toThrow('a.json is not JSON');
    expect(() => parseJobFile(JSON.stringify({ job_id: 'j', submission_id: 's', replay_spec: { ...spec, time_budget_seconds: 0, validator_benchmark_env: { A: 1 } } }), 'a.json')).toThrow(
      'a.json is not a saved validator job: replay_spec.time_budget_seconds must be a positive integer; replay_spec.validator_benchmark_env must map names to strings',
    );
  });
});
