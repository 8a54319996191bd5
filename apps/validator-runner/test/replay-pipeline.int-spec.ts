import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { IncomingHttpHeaders } from 'node:http';
import { basename, dirname, join } from 'node:path';
import { ReplaySpecDto, VerificationStatus } from '@rcs/contracts';
import { ValidatorJobToReplay } from '../src/replay/replay-pipeline';
import { toResultBody } from '../src/runner/job-processor';
import { BENCH_PATCH, jobToReplay, localReplaySpec, scalePatch } from './bench-repo';
import { startReplayRig, type ReplayRig } from './support/replay-rig';

const ARTIFACT = Buffer.from('weights '.repeat(100));
const HELDOUT_ROWS = '{"x": 1}\n{"x": 2}\n{"x": 3}\n';
const TOKEN = 'heldout-token-7f3a9c';

/** The bwrap sandbox end to end: clone, patch, download, prefetch, setup, benchmark, verdict. */
describe('replay pipeline on the bwrap sandbox', () => {
  let rig: ReplayRig;
  const heldoutRequests: IncomingHttpHeaders[] = [];
  /** Every request the server answered, whatever its path. */
  let requests = 0;

  beforeAll(async () => {
    rig = await startReplayRig({
      prefix: 'runner-pipeline-',
      serve: (req, res) => {
        requests += 1;
        if (req.url === '/artifact/model.bin') return void res.writeHead(200).end(ARTIFACT);
        if (req.url === '/heldout/rows.jsonl') {
          heldoutRequests.push(req.headers);
          return void (req.headers.authorization === `Bearer ${TOKEN}` ? res.writeHead(200).end(HELDOUT_ROWS) : res.writeHead(401).end());
        }
        res.writeHead(404).end();
      },
      sandbox: { kind: 'bwrap' },
    });
  });

  afterAll(() => rig?.stop());

  function job(spec: Partial<ReplaySpecDto>): ValidatorJobToReplay {
    return jobToReplay(localReplaySpec(rig.repo, rig.commit, { patch: scalePatch('1.5'), ...spec }));
  }

  const workspace = (j: ValidatorJobToReplay) => join(rig.root, 'work', j.job_id, 'repo');

  it('accepts with the metric the benchmark observed on the patched code', async () => {
    const result = await rig.pipeline.replay(job({ setup_command: 'echo setting up > setup.txt' }));
    expect(result).toMatchObject({
      status: VerificationStatus.Accepted,
      notes: 'Observed loss=1.25 (from result.json).',
    });
    // Only the task's metric is posted: `rows`, also in result.json, is not the task's.
    expect(result.observedMetrics).toEqual({ loss: 1.25 });
    expect(Object.keys(result.timings)).toEqual(['clone', 'patch', 'setup', 'benchmark', 'total']);
    expect(result.replayLog).toMatch(/clone: checked out [0-9a-f]{40}/);
    expect(result.replayLog).toContain('----- benchmark output -----');
  }, 60_000);

  it('falls back to the last `loss=` line of the output when there is no result file', async () => {
    const result = await rig.pipeline.replay(job({ validator_benchmark_env: { BENCH_MODE: 'print-only' } }));
    expect(result).toMatchObject({ status: VerificationStatus.Accepted, observedMetrics: { loss: 1.25 } });
    expect(result.replayLog).toContain('the benchmark wrote no result.json; falling back to the output');
  }, 60_000);

  it('rejects a patch outside the allowed surface without running anything', async () => {
    const j = job({ patch: BENCH_PATCH });
    const result = await rig.pipeline.replay(j);
    expect(result.status).toBe(VerificationStatus.Rejected);
    expect(result.notes).toMatch(/^The patch breaks the task's patch rules: patch_path_not_allowed: The patch touches "bench.py"/);
    expect(result.timings).not.toHaveProperty('benchmark');
    expect(existsSync(join(workspace(j), 'env.json'))).toBe(false);
  }, 60_000);

  it('rejects when the benchmark exits non-zero, with its output in the log', async () => {
    const result = await rig.pipeline.replay(job({ validator_benchmark_env: { BENCH_MODE: 'exit-3' } }));
    expect(result).toMatchObject({ status: VerificationStatus.Rejected, notes: 'The benchmark exited with code 3.' });
    expect(result.replayLog).toContain('benchmark failed on purpose');
  }, 60_000);

  it('ends in error when the benchmark outlives the time budget', async () => {
    const result = await rig.pipeline.replay(job({ validator_benchmark_env: { BENCH_MODE: 'sleep-forever' }, time_budget_seconds: 4 }));
    expect(result).toMatchObject({ status: VerificationStatus.Error, notes: 'The benchmark ran past the time budget.' });
    expect(result.timings.total).toBeLessThan(15_000);
  }, 60_000);

  it('ends in error when setup fails', async () => {
    const result = await rig.pipeline.replay(job({ setup_command: 'exit 4' }));
    expect(result).toMatchObject({ status: VerificationStatus.Error, notes: 'The setup command exited with code 4.' });
  }, 60_000);

  it('gives the benchmark the artifact and held-out data as local paths only, and redacts every private value', async () => {
    const j = job({
      patch: '',
      artifact_uri: `${rig.baseUrl}/artifact/model.bin`,
      artifact_sha256: createHash('sha256').update(ARTIFACT).digest('hex'),
      artifact_size_bytes: ARTIFACT.length,
      validator_benchmark_env: { HELDOUT_URL: `${rig.baseUrl}/heldout/rows.jsonl`, HELDOUT_TOKEN: TOKEN, DATASET_MIX: 'private-mix-0.7' },
      secondary_metric_name: 'artifact_bytes',
    });
    const result = await rig.pipeline.replay(j);
    expect(result).toMatchObject({ status: VerificationStatus.Accepted });
    expect(result.observedMetrics).toEqual({ loss: 2.5, artifact_bytes: ARTIFACT.length });
    expect(heldoutRequests.at(-1)?.authorization).toBe(`Bearer ${TOKEN}`);

    const env = JSON.parse(readFileSync(join(workspace(j), 'env.json'), 'utf8')) as Record<string, string>;
    const jobDir = join(rig.root, 'work', j.job_id);
    expect(env).toMatchObject({
      HELDOUT_PATH: join(jobDir, 'heldout', 'HELDOUT', 'rows.jsonl'),
      HELDOUT_MANIFEST: join(jobDir, 'heldout', 'manifest.json'),
      ARTIFACT_PATH: join(jobDir, 'artifact', 'model.bin'),
      DATASET_MIX: 'private-mix-0.7',
    });
    expect(env).not.toHaveProperty('HELDOUT_URL');
    expect(env).not.toHaveProperty('HELDOUT_TOKEN');
    expect(JSON.stringify(env)).not.toContain(TOKEN);
    expect(JSON.stringify(env)).not.toContain('/heldout/rows.jsonl?');
    expect(Object.values(env).some((value) => value.includes(rig.baseUrl))).toBe(false);

    for (const secret of [TOKEN, 'private-mix-0.7', `${rig.baseUrl}/heldout/rows.jsonl`]) expect(result.replayLog).not.toContain(secret);
    expect(result.replayLog).toContain('prefetch: HELDOUT: 27 bytes');
    expect(Object.keys(result.timings)).toEqual(['clone', 'download', 'prefetch', 'benchmark', 'total']);
  }, 60_000);

  it('posts only the task metric and secondary metric: held-out rows written as metric names stay private', async () => {
    const result = await rig.pipeline.replay(
      job({
        validator_benchmark_env: { HELDOUT_URL: `${rig.baseUrl}/heldout/rows.jsonl`, HELDOUT_TOKEN: TOKEN, BENCH_MODE: 'leak-heldout' },
        secondary_metric_name: 'heldout_rows',
      }),
    );
    expect(result.status).toBe(VerificationStatus.Accepted);
    expect(result.observedMetrics).toEqual({ loss: 1.25, heldout_rows: 3 });
    const body = JSON.stringify(toResultBody({ submission_id: 'sub' }, result));
    // Each row as it would appear inside the posted JSON (the benchmark did write them: see its output's result.json).
    for (const row of HELDOUT_ROWS.trim().split('\n')) expect(body).not.toContain(JSON.stringify(row).slice(1, -1));
    expect(result.replayLog).toContain('observed {"loss":1.25,"heldout_rows":3}');
  }, 60_000);

  it('gives a benchmark reading outside what it is given nothing: no URL, token, server, other job or host file', async () => {
    const heldoutEnv = { HELDOUT_URL: `${rig.baseUrl}/heldout/rows.jsonl`, HELDOUT_TOKEN: TOKEN };
    // Another job's workspace and held-out data, kept on the host next to the hostile one.
    const neighbour = job({ validator_benchmark_env: heldoutEnv });
    expect((await rig.pipeline.replay(neighbour)).status).toBe(VerificationStatus.Accepted);
    const neighbourDir = join(rig.root, 'work', neighbour.job_id);
    expect(readFileSync(join(neighbourDir, 'heldout', 'HELDOUT', 'rows.jsonl'), 'utf8')).toBe(HELDOUT_ROWS);

    const port = new URL(rig.baseUrl).port;
    const hostile = job({ validator_benchmark_env: { ...heldoutEnv, BENCH_MODE: 'snoop', SNOOP_PORT: port } });
    const requestsBefore = requests;
    const heldoutBefore = heldoutRequests.length;
    const result = await rig.pipeline.replay(hostile);

    // One request reached the held-out server during the replay: the host's prefetch, with the token.
    expect(requests - requestsBefore).toBe(1);
    expect(heldoutRequests.slice(heldoutBefore).map((headers) => headers.authorization)).toEqual([`Bearer ${TOKEN}`]);

    const jobDir = join(rig.root, 'work', hostile.job_id);
    const heldoutPath = join(jobDir, 'heldout', 'HELDOUT', 'rows.jsonl');
    const manifestPath = join(jobDir, 'heldout', 'manifest.json');
    const raw = readFileSync(join(workspace(hostile), 'snoop.json'), 'utf8');
    const snoop = JSON.parse(raw) as {
      environ: Record<string, string>;
      processes: Record<string, { environ: string | null; cmdline: string | null }>;
      network: Record<string, string>;
      files: Record<string, string>;
      listings: Record<string, string[] | string>;
    };
    // The files it could read outside its workspace: its own held-out rows and manifest, nothing else.
    expect(Object.keys(snoop.files).sort()).toEqual([heldoutPath, manifestPath].sort());
    expect(snoop.files[heldoutPath]).toBe(HELDOUT_ROWS);
    expect(snoop.environ).toMatchObject({ HELDOUT_PATH: heldoutPath, HELDOUT_MANIFEST: manifestPath });
    expect(snoop.environ).not.toHaveProperty('HELDOUT_URL');
    expect(snoop.environ).not.toHaveProperty('HELDOUT_TOKEN');
    // Above its workspace only the mount points of its own job: no other job, no origin repository, no host /tmp.
    const above: Record<string, unknown> = { [jobDir]: ['artifact', 'heldout', 'repo'], [join(rig.root, 'work')]: [hostile.job_id], [rig.root]: ['work'], '/': expect.any(Array) };
    for (let dir = rig.root; dirname(dir) !== '/'; dir = dirname(dir)) above[dirname(dir)] = [basename(dir)];
    expect(snoop.listings).toEqual(above);
    expect(readdirSync(dirname(jobDir))).toEqual(expect.arrayContaining([neighbour.job_id, hostile.job_id]));
    // It saw its own processes only, and reached no server: its loopback has no listener, the host's port refuses.
    expect(Object.keys(snoop.processes).length).toBeGreaterThan(0);
    expect(Object.keys(snoop.processes).length).toBeLessThan(10);
    expect(snoop.network).toEqual({ [port]: 'refused errno 111' });
    for (const secret of [TOKEN, rig.baseUrl, '/heldout/rows.jsonl', neighbour.job_id]) expect(raw).not.toContain(secret);
    // And it published nothing of the kind: the posted metrics, the notes, the result file and the replay log.
    expect(result).toMatchObject({ status: VerificationStatus.Accepted, observedMetrics: { loss: 1.25 }, notes: 'Observed loss=1.25 (from result.json).' });
    const resultFile = readFileSync(join(workspace(hostile), 'result.json'), 'utf8');
    expect(Object.keys(JSON.parse(resultFile) as object).sort()).toEqual(['found:' + heldoutPath, 'found:' + manifestPath, 'heldout_rows', 'loss', 'per_item', 'rows'].sort());
    const body = JSON.stringify(toResultBody({ submission_id: hostile.submission_id }, result));
    for (const text of [resultFile, body, result.replayLog]) {
      for (const secret of [TOKEN, rig.baseUrl, `127.0.0.1:${port}`, '/heldout/rows.jsonl', '[redacted:HELDOUT_URL]', '[redacted:HELDOUT_TOKEN]']) expect(text).not.toContain(secret);
    }
    expect(result.replayLog).toContain(`read outside the workspace: ${[heldoutPath, manifestPath].sort().join(' ')}`);
  }, 60_000);

  it('rejects an artifact whose hash does not match, before running the benchmark', async () => {
    const result = await rig.pipeline.replay(
      job({ patch: '', artifact_uri: `${rig.baseUrl}/artifact/model.bin`, artifact_sha256: 'b'.repeat(64), artifact_size_bytes: ARTIFACT.length }),
    );
    expect(result.status).toBe(VerificationStatus.Rejected);
    expect(result.notes).toMatch(/SHA-256/);
    expect(result.timings).not.toHaveProperty('benchmark');
  }, 60_000);
});
