import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ReplaySpecDto, VerificationStatus } from '@rcs/contracts';
import { ValidatorJobToReplay } from '../src/replay/replay-pipeline';
import { toResultBody } from '../src/runner/job-processor';
import { HELDOUT_READING_PATCH, jobToReplay, localReplaySpec, scalePatch } from './bench-repo';
import { startReplayRig, type ReplayRig } from './support/replay-rig';

const ROWS = 'first held-out row\nsecond held-out row\n';
const HF_TOKEN = 'hf_secret_token_1234';
const SOURCES_JSON = '[{"dataset":"org/private","split":"test","revision":"abc123"}]';
const ROTATION = { slot: 2967, number: '0123456789abcdef0123456789abcdef' };

/** A tar (Python's tarfile) of `members`: [name, text] files, or [name, {symlink}]. */
function tarOf(members: [string, string | { symlink: string }][]): Buffer {
  const script = `import io, json, sys, tarfile
buffer = io.BytesIO()
with tarfile.open(fileobj=buffer, mode="w") as out:
    for name, what in json.loads(sys.argv[1]):
        info = tarfile.TarInfo(name)
        if isinstance(what, str):
            data = what.encode(); info.size = len(data); out.addfile(info, io.BytesIO(data))
        else:
            info.type = tarfile.SYMTYPE; info.linkname = what["symlink"]; out.addfile(info)
sys.stdout.buffer.write(buffer.getvalue())
`;
  return execFileSync('python3', ['-c', script, JSON.stringify(members)]);
}

const SHARD = tarOf([
  ['manifest.json', JSON.stringify({ datasets: { web: [{ path: 'rows/0.txt' }] }, documents: ['inline document'] })],
  ['rows/0.txt', ROWS],
]);
const LINKED_SHARD = tarOf([
  ['manifest.json', JSON.stringify({ documents: [{ path: 'rows/0.txt' }] })],
  ['rows/0.txt', { symlink: '/etc/passwd' }],
]);
const sha = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** The BitSota replay profile (DECISIONS §15) and what a replay may say (§6), through the pipeline in the bwrap sandbox. */
describe('replay pipeline: the BitSota profile and public notes', () => {
  let rig: ReplayRig;
  /** Requests of the fake Hugging Face rows server: their query and Authorization header. */
  const rowRequests: { query: Record<string, string>; authorization: string | undefined }[] = [];
  const ARTIFACT = Buffer.from('weights '.repeat(64));

  beforeAll(async () => {
    rig = await startReplayRig({
      prefix: 'runner-profile-',
      serve: (req, res) => {
        const url = new URL(req.url ?? '/', 'http://rows.test');
        if (url.pathname === '/rows') {
          const query = Object.fromEntries(url.searchParams);
          rowRequests.push({ query, authorization: req.headers.authorization });
          if (req.headers.authorization !== `Bearer ${HF_TOKEN}`) return void res.writeHead(401).end();
          // A dataset of 1000 rows, `document <i>` in its text column.
          const offset = Number(query.offset);
          const rows = Array.from({ length: Math.max(0, Math.min(Number(query.length), 1000 - offset)) }, (_, i) => ({ row_idx: offset + i, row: { text: `document ${offset + i}`, id: offset + i } }));
          return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ rows }));
        }
        const body = { '/shard.tar': SHARD, '/linked.tar': LINKED_SHARD, '/rows.txt': Buffer.from(ROWS), '/model.bin': ARTIFACT }[req.url ?? ''];
        return void (body === undefined ? res.writeHead(404).end() : res.writeHead(200).end(body));
      },
      sandbox: { kind: 'bwrap' },
      options: (baseUrl) => ({ hfRowsUrl: `${baseUrl}/rows` }),
    });
  });

  afterAll(() => rig?.stop());

  const profileEnv = (): Record<string, string> => ({
    AUTORESEARCH_PRIVATE_HELDOUT_URL: `${rig.baseUrl}/shard.tar`,
    AUTORESEARCH_PRIVATE_HELDOUT_SHA256: sha(SHARD),
    AUTORESEARCH_HELDOUT_SOURCES_JSON: SOURCES_JSON,
    AUTORESEARCH_PRIVATE_HELDOUT_HF_TOKEN: HF_TOKEN,
    HF_TOKEN,
  });

  function job(spec: Partial<ReplaySpecDto>, rotation = ROTATION): ValidatorJobToReplay {
    return { ...jobToReplay(localReplaySpec(rig.repo, rig.commit, { patch: scalePatch('1.5'), ...spec })), heldout_rotation: rotation };
  }

  const workspace = (j: ValidatorJobToReplay) => join(rig.root, 'work', j.job_id, 'repo');
  const envFile = (j: ValidatorJobToReplay, name: string) => JSON.parse(readFileSync(join(workspace(j), name), 'utf8')) as Record<string, string>;

  it('exports the profile’s variables to the benchmark only, and no token, source JSON or rotation number reaches setup, notes or log', async () => {
    const j = job({
      patch: '',
      artifact_uri: `${rig.baseUrl}/model.bin`,
      artifact_sha256: sha(ARTIFACT),
      artifact_size_bytes: ARTIFACT.length,
      setup_command: `python3 -c 'import json, os; json.dump(dict(os.environ), open("setup-env.json", "w"))'`,
      validator_benchmark_env: { ...profileEnv(), AUTORESEARCH_SUBMISSION_ARTIFACT_PATH: '/claimed/by/the/task' },
    });
    const result = await rig.pipeline.replay(j);
    expect(result).toMatchObject({ status: VerificationStatus.Accepted, observedMetrics: { loss: 2.5 } });
    const jobDir = join(rig.root, 'work', j.job_id);
    const rootDir = join(jobDir, 'heldout', 'AUTORESEARCH_PRIVATE_HELDOUT.root');
    const artifact = join(jobDir, 'artifact', 'model.bin');
    const bench = envFile(j, 'env.json');
    expect(bench).toMatchObject({
      AUTORESEARCH_SUBMISSION_ARTIFACT_PATH: artifact,
      AUTORESEARCH_SUBMISSION_ARTIFACT_BYTES: String(ARTIFACT.length),
      AUTORESEARCH_PRIVATE_HELDOUT_MANIFEST: join(rootDir, 'manifest.json'),
      AUTORESEARCH_PRIVATE_HELDOUT_ROOT: rootDir,
      AUTORESEARCH_HELDOUT_DATASET: 'validator-private-shard',
      AUTORESEARCH_HELDOUT_SYNC_SLOT: String(ROTATION.slot),
      AUTORESEARCH_HELDOUT_SYNC_NUMBER: ROTATION.number,
      ARTIFACT_PATH: artifact,
    });
    expect(readFileSync(join(rootDir, 'rows', '0.txt'), 'utf8')).toBe(ROWS);
    // Setup gets the artifact, never the held-out data or the rotation (§6: held-out data is the benchmark's only).
    const setup = envFile(j, 'setup-env.json');
    expect(setup).toMatchObject({ AUTORESEARCH_SUBMISSION_ARTIFACT_PATH: artifact });
    for (const name of ['AUTORESEARCH_PRIVATE_HELDOUT_MANIFEST', 'AUTORESEARCH_PRIVATE_HELDOUT_PATH', 'HELDOUT_MANIFEST', 'AUTORESEARCH_HELDOUT_SYNC_NUMBER']) expect(setup).not.toHaveProperty(name);
    // Sources and credentials the host reads never enter the sandbox.
    for (const env of [bench, setup]) {
      for (const name of ['HF_TOKEN', 'AUTORESEARCH_HELDOUT_SOURCES_JSON', 'AUTORESEARCH_PRIVATE_HELDOUT_HF_TOKEN', 'AUTORESEARCH_PRIVATE_HELDOUT_URL', 'AUTORESEARCH_PRIVATE_HELDOUT_SHA256']) {
        expect(env).not.toHaveProperty(name);
      }
      for (const secret of [HF_TOKEN, SOURCES_JSON, sha(SHARD), rig.baseUrl]) expect(JSON.stringify(env)).not.toContain(secret);
    }
    const body = JSON.stringify(toResultBody(j, result));
    for (const secret of [HF_TOKEN, SOURCES_JSON, ROTATION.number, sha(SHARD), rig.baseUrl]) expect(body).not.toContain(secret);
    expect(result.replayLog).toContain('prepare: their manifest lists 2 document(s)');
  }, 60_000);

  it('reads verdicts from validator_rejection= lines; any other failure under the profile is the validator’s', async () => {
    const refusing = `echo validator_rejection=high_precision_fraction 12.0 % of weights are rescue >&2; exit 1`;
    expect(await rig.pipeline.replay(job({ benchmark_command: refusing, validator_benchmark_env: profileEnv() }))).toMatchObject({
      status: VerificationStatus.Rejected,
      notes: 'ineligible (high_precision_fraction)',
    });
    const crashing = await rig.pipeline.replay(job({ benchmark_command: 'python3 -c "raise KeyError(\'row\')"', validator_benchmark_env: profileEnv() }));
    expect(crashing).toMatchObject({ status: VerificationStatus.Error, notes: 'benchmark_failed (exit 1)', observedMetrics: {} });
    expect(crashing.replayLog).toContain("KeyError: 'row'");
    // Without held-out sources (no manifest: their benchmark refuses to run), the failure is still the validator's.
    const noManifest = await rig.pipeline.replay(
      job({ benchmark_command: 'echo validator-private heldout requires a local AUTORESEARCH_PRIVATE_HELDOUT_MANIFEST file >&2; exit 1', validator_benchmark_env: { RCS_REPLAY_PROFILE: 'bitsota-autoresearch-v1' } }),
    );
    expect(noManifest).toMatchObject({ status: VerificationStatus.Error, notes: 'The benchmark exited with code 1.' });
    // The metric under metrics.<name>, the result file written only on success.
    const nested = `python3 -c 'import json; json.dump({"metrics": {"loss": 0.75}}, open("result.json", "w"))'`;
    expect(await rig.pipeline.replay(job({ benchmark_command: nested, validator_benchmark_env: profileEnv() }))).toMatchObject({
      status: VerificationStatus.Accepted,
      observedMetrics: { loss: 0.75 },
    });
  }, 120_000);

  it('ends in error when the shard is not their manifest format or was not delivered, before any sandbox runs', async () => {
    const linked = await rig.pipeline.replay(job({ validator_benchmark_env: { AUTORESEARCH_PRIVATE_HELDOUT_URL: `${rig.baseUrl}/linked.tar` } }));
    expect(linked).toMatchObject({ status: VerificationStatus.Error, notes: 'The private held-out data could not be prepared for the benchmark.' });
    expect(linked.replayLog).toContain('failure: the private held-out archive member "rows/0.txt" is not a regular file or directory (type 2)');
    expect(linked.timings).not.toHaveProperty('benchmark');
    const undelivered = await rig.pipeline.replay(job({ validator_benchmark_env: { AUTORESEARCH_PRIVATE_HELDOUT_SHARD: 'coordinator' } }));
    expect(undelivered).toMatchObject({ status: VerificationStatus.Error, notes: 'The job came without the held-out data its task names.' });
  }, 60_000);

  it('a setup refusal is the submission’s, with its sentence: setup never sees held-out data', async () => {
    const result = await rig.pipeline.replay(
      job({ setup_command: 'echo "validator_rejection=rescue_fraction 12.0 % of the weights are 4-bit rescue, over the cap of 10 %." >&2; exit 1', validator_benchmark_env: profileEnv() }),
    );
    expect(result).toMatchObject({ status: VerificationStatus.Rejected, notes: 'ineligible (rescue_fraction): 12.0 % of the weights are 4-bit rescue, over the cap of 10 %.' });
    expect(result.timings).not.toHaveProperty('benchmark');
  }, 60_000);

  it('a patch reading the held-out rows into result.json’s error gets only the closed-list note (issue 34’s second finding)', async () => {
    const j = job({ patch: HELDOUT_READING_PATCH, validator_benchmark_env: { HELDOUT_URL: `${rig.baseUrl}/rows.txt`, DATASET_MIX: 'private-mix-0.7' } });
    const result = await rig.pipeline.replay(j);
    // The patch did write them: the result file holds the rows and the host path of the held-out file.
    expect(readFileSync(join(workspace(j), 'result.json'), 'utf8')).toContain('first held-out row');
    expect(result).toMatchObject({ status: VerificationStatus.Rejected, notes: 'benchmark_failed (exit 2)', observedMetrics: {} });
  }, 60_000);

  it('fetches Hugging Face row sources on the host at their pinned revision, with the token, into their manifest', async () => {
    rowRequests.length = 0;
    const sources = JSON.stringify([{ dataset: 'org/private-eval', config: 'en', split: 'test', revision: 'c0ffee1', text_column: 'text', offset: 10, row_count: 150, rotate: true }]);
    const j = job({ validator_benchmark_env: { AUTORESEARCH_HELDOUT_SOURCES_JSON: sources, HF_TOKEN } }, { slot: 2, number: ROTATION.number });
    const result = await rig.pipeline.replay(j);
    expect(result).toMatchObject({ status: VerificationStatus.Accepted });
    // Two pages of at most 100, starting slot × row_count further on (rotate), each at the revision, with the token.
    expect(rowRequests.map((r) => [r.query.offset, r.query.length, r.query.revision, r.query.dataset, r.query.config, r.query.split, r.authorization])).toEqual([
      ['310', '100', 'c0ffee1', 'org/private-eval', 'en', 'test', `Bearer ${HF_TOKEN}`],
      ['410', '50', 'c0ffee1', 'org/private-eval', 'en', 'test', `Bearer ${HF_TOKEN}`],
    ]);
    const bench = envFile(j, 'env.json');
    const manifest = JSON.parse(readFileSync(bench.AUTORESEARCH_PRIVATE_HELDOUT_MANIFEST, 'utf8')) as { documents: { path: string }[] };
    expect(manifest.documents).toHaveLength(150);
    expect(readFileSync(join(bench.AUTORESEARCH_PRIVATE_HELDOUT_ROOT, manifest.documents[0].path), 'utf8')).toBe('document 310');
    for (const secret of [HF_TOKEN, 'c0ffee1', 'org/private-eval']) expect(JSON.stringify(bench)).not.toContain(secret);
    expect(result.replayLog).toContain('prepare: their manifest lists 150 document(s)');
  }, 60_000);

  it('ends in error for row sources without a pinned revision, or that the rows server refuses', async () => {
    const unpinned = await rig.pipeline.replay(job({ validator_benchmark_env: { AUTORESEARCH_HELDOUT_SOURCES_JSON: JSON.stringify([{ dataset: 'org/x', split: 'test', row_count: 5 }]) } }));
    expect(unpinned).toMatchObject({ status: VerificationStatus.Error, notes: 'The private held-out data could not be prepared for the benchmark.' });
    expect(unpinned.replayLog).toContain('held-out row source 0 has no pinned revision');
    const refused = await rig.pipeline.replay(job({ validator_benchmark_env: { AUTORESEARCH_HELDOUT_SOURCES_JSON: JSON.stringify([{ dataset: 'org/x', split: 'test', revision: 'r', row_count: 5 }]), HF_TOKEN: 'wrong-token' } }));
    expect(refused).toMatchObject({ status: VerificationStatus.Error });
    expect(refused.replayLog).toContain('held-out row source 0 answered 401');
    expect(refused.timings).not.toHaveProperty('benchmark');
  }, 60_000);
});
