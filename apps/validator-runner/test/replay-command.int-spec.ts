import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, runValidatorRunner, suiteTempDir } from '@rcs/testing';
import { createBenchRepo, scalePatch } from './bench-repo';

/** `replay --job-file F`: a saved job replayed locally, the would-be result printed, nothing posted. */
describe('validator-runner replay --job-file', () => {
  let root: string;

  suiteTempDir('runner-replay-cmd-', (made) => (root = made));

  it('prints the result it would post, with no identity and no coordinator', async () => {
    const commit = createBenchRepo(join(root, 'origin'));
    const jobFile = join(root, 'job.json');
    const submissionId = randomUUID();
    writeFileSync(
      jobFile,
      JSON.stringify({
        job_id: randomUUID(),
        submission_id: submissionId,
        replay_spec: {
          repository: `file://${join(root, 'origin')}`,
          base_ref: commit,
          base_commit_sha: null,
          setup_command: null,
          benchmark_command: 'python3 bench.py',
          result_path: 'result.json',
          allowed_patch_paths: ['model.py'],
          metric_name: 'loss',
          metric_direction: 'minimize',
          ranking_mode: 'scalar',
          secondary_metric_name: null,
          secondary_metric_direction: null,
          validator_benchmark_env: {},
          time_budget_seconds: 60,
          max_patch_bytes: 10000,
          patch: scalePatch('2.5'),
          artifact_uri: null,
          artifact_sha256: null,
          artifact_size_bytes: null,
        },
      }),
    );
    const run = await runValidatorRunner(['replay', '--job-file', jobFile], {
      ALLOW_LOCAL_REPOSITORIES: 'true',
      RUNNER_WORK_DIR: join(root, 'work'),
      COORDINATOR_URL: `http://127.0.0.1:${await freePort()}`,
    });
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(result).toMatchObject({ status: 'accepted', observed_metrics: { loss: 1.25 }, notes: 'Observed loss=1.25 (from result.json).', submission_id: submissionId });
    expect(result.observed_metrics).toEqual({ loss: 1.25 });
    // The benchmark's per-item losses go to the coordinator's release rule, beside (never inside) the public metrics.
    expect(result.per_item).toEqual([0.5, 1, 1.5, 2]);
    expect(result.replay_log).toEqual(expect.stringContaining('verdict: accepted'));
    expect(run.stderr).toContain('"msg":"benchmark: done"');
    expect(run.stderr).not.toContain('"phase":"post"');
  }, 90_000);

  it('refuses a file that is not a saved job', async () => {
    const bad = join(root, 'bad.json');
    writeFileSync(bad, JSON.stringify({ job_id: 'x', replay_spec: { repository: 1 } }));
    const run = await runValidatorRunner(['replay', '--job-file', bad], {});
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/is not a saved validator job: submission_id must be a string; replay_spec.repository must be a string/);
  }, 90_000);
});
