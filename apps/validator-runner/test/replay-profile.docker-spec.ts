/**
 * The BitSota replay profile (DECISIONS §15) through the pipeline in the docker sandbox, against a real Docker engine:
 * the profile's variables reach the benchmark container only, host-only tokens and sources never enter a container,
 * and the verdicts come from the benchmark's refusal lines. Not part of `npm test`: `npx nx run validator-runner:test-docker`
 * builds the image (deploy/docker/local-base.sh sandbox) and runs the docker specs; CI's deploy step calls it.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ReplaySpecDto, VerificationStatus } from '@rcs/contracts';
import { ValidatorJobToReplay } from '../src/replay/replay-pipeline';
import { toResultBody } from '../src/runner/job-processor';
import { jobToReplay, localReplaySpec, scalePatch } from './bench-repo';
import { startReplayRig, type ReplayRig } from './support/replay-rig';

/** The benchmark image deploy/docker/local-base.sh builds: Debian's python3 and Node. */
const IMAGE = 'rcs-local/sandbox:2';
const HF_TOKEN = 'hf_docker_secret_token_99';
const SOURCES_JSON = '[{"dataset":"org/private","split":"test","revision":"r1"}]';
const ROTATION = { slot: 4242, number: 'fedcba9876543210fedcba9876543210' };
const ROWS = 'a held-out document\n';

jest.setTimeout(180_000);

function docker(...args: string[]): string {
  return execFileSync('docker', args, { encoding: 'utf8' }).trim();
}

/** A tar of their manifest format and one row file (Python's tarfile). */
function shardTar(): Buffer {
  const script = `import io, json, sys, tarfile
buffer = io.BytesIO()
with tarfile.open(fileobj=buffer, mode="w") as out:
    for name, text in (("manifest.json", json.dumps({"documents": [{"path": "rows/0.txt"}]})), ("rows/0.txt", sys.argv[1])):
        data = text.encode(); info = tarfile.TarInfo(name); info.size = len(data); out.addfile(info, io.BytesIO(data))
sys.stdout.buffer.write(buffer.getvalue())
`;
  return execFileSync('python3', ['-c', script, ROWS]);
}

describe('replay pipeline: the BitSota profile in the docker sandbox (real Docker engine)', () => {
  const shard = shardTar();
  let rig: ReplayRig;

  beforeAll(async () => {
    // No engine or no image is a failure here, never a skip: this file runs only where both are expected.
    expect(docker('version', '-f', '{{.Server.Version}}')).toMatch(/^\d+\./);
    expect(docker('image', 'inspect', '-f', '{{.Id}}', IMAGE)).toMatch(/^sha256:/);
    rig = await startReplayRig({
      prefix: 'runner-profile-docker-',
      serve: (req, res) => void (req.url === '/shard.tar' ? res.writeHead(200).end(shard) : res.writeHead(404).end()),
      sandbox: { kind: 'docker', dockerImage: IMAGE },
    });
  });

  afterAll(() => rig?.stop());

  const profileEnv = (): Record<string, string> => ({
    AUTORESEARCH_PRIVATE_HELDOUT_URL: `${rig.baseUrl}/shard.tar`,
    AUTORESEARCH_PRIVATE_HELDOUT_SHA256: createHash('sha256').update(shard).digest('hex'),
    AUTORESEARCH_HELDOUT_SOURCES_JSON: SOURCES_JSON,
    HF_TOKEN,
  });

  function job(spec: Partial<ReplaySpecDto>): ValidatorJobToReplay {
    return { ...jobToReplay(localReplaySpec(rig.repo, rig.commit, { patch: scalePatch('1.5'), validator_benchmark_env: profileEnv(), ...spec })), heldout_rotation: ROTATION };
  }

  it('gives the benchmark container the profile’s variables and setup none of the held-out data; no token or source enters either', async () => {
    const j = job({ setup_command: `python3 -c 'import json, os; json.dump(dict(os.environ), open("setup-env.json", "w"))'` });
    const result = await rig.pipeline.replay(j);
    expect(result).toMatchObject({ status: VerificationStatus.Accepted, observedMetrics: { loss: 1.25 } });
    const workspace = join(rig.root, 'work', j.job_id, 'repo');
    const rootDir = join(rig.root, 'work', j.job_id, 'heldout', 'AUTORESEARCH_PRIVATE_HELDOUT.root');
    const bench = JSON.parse(readFileSync(join(workspace, 'env.json'), 'utf8')) as Record<string, string>;
    const setup = JSON.parse(readFileSync(join(workspace, 'setup-env.json'), 'utf8')) as Record<string, string>;
    expect(bench).toMatchObject({
      AUTORESEARCH_PRIVATE_HELDOUT_MANIFEST: join(rootDir, 'manifest.json'),
      AUTORESEARCH_PRIVATE_HELDOUT_ROOT: rootDir,
      AUTORESEARCH_HELDOUT_DATASET: 'validator-private-shard',
      AUTORESEARCH_HELDOUT_SYNC_SLOT: String(ROTATION.slot),
      AUTORESEARCH_HELDOUT_SYNC_NUMBER: ROTATION.number,
    });
    for (const name of ['AUTORESEARCH_PRIVATE_HELDOUT_MANIFEST', 'AUTORESEARCH_HELDOUT_SYNC_NUMBER', 'HELDOUT_MANIFEST']) expect(setup).not.toHaveProperty(name);
    for (const env of [bench, setup]) {
      for (const name of ['HF_TOKEN', 'AUTORESEARCH_HELDOUT_SOURCES_JSON', 'AUTORESEARCH_PRIVATE_HELDOUT_URL']) expect(env).not.toHaveProperty(name);
      for (const secret of [HF_TOKEN, SOURCES_JSON, rig.baseUrl]) expect(JSON.stringify(env)).not.toContain(secret);
    }
    const body = JSON.stringify(toResultBody(j, result));
    for (const secret of [HF_TOKEN, SOURCES_JSON, ROTATION.number, rig.baseUrl]) expect(body).not.toContain(secret);
  });

  it('takes a refusal line as the verdict and any other failure as the validator’s', async () => {
    const refused = await rig.pipeline.replay(job({ benchmark_command: 'echo validator_rejection=high_precision_fraction too much rescue >&2; exit 1' }));
    expect(refused).toMatchObject({ status: VerificationStatus.Rejected, notes: 'ineligible (high_precision_fraction)' });
    const crashed = await rig.pipeline.replay(job({ benchmark_command: 'python3 -c "raise SystemExit(3)"' }));
    expect(crashed).toMatchObject({ status: VerificationStatus.Error, notes: 'benchmark_failed (exit 3)' });
  });
});
