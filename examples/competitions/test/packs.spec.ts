import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// The task packs with real python3 + NumPy: train, pack, benchmark, and the sentences ineligible artifacts get.
const PACKS = resolve(__dirname, '..');
const SECRET = 'test-heldout-seed-1';
const TRAINING_MS = 60_000;

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** One of the packs' scripts, in `cwd`, with only PATH and `env`: nothing held out leaks in from this process. */
function python(cwd: string, script: string, args: string[], env: Record<string, string> = {}): Run {
  const run = spawnSync('python3', [join(PACKS, script), ...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', OPENBLAS_NUM_THREADS: '1', PYTHONDONTWRITEBYTECODE: '1', ...env },
    timeout: TRAINING_MS,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

function ok(run: Run): Run {
  if (run.status !== 0) throw new Error(`exit ${String(run.status)}: ${run.stderr}`);
  return run;
}

function result(cwd: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(cwd, 'result.json'), 'utf8')) as Record<string, unknown>;
}

function metric(cwd: string, name: string): number {
  const value = result(cwd)[name];
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error(`${name} is not a finite number: ${String(value)}`);
  return value;
}

/** The benchmark fails with exit status 2, one sentence on stderr, and the same sentence as `error` in result.json. */
function expectFailure(cwd: string, run: Run, sentence: RegExp): void {
  expect(run.status).toBe(2);
  expect(run.stderr.trim()).toMatch(sentence);
  expect(result(cwd)).toEqual({ error: run.stderr.trim() });
}

function workdir(): string {
  return mkdtempSync(join(tmpdir(), 'rcs-packs-'));
}

describe('heldout-ppl pack', () => {
  let dir: string;

  beforeAll(() => {
    dir = workdir();
    ok(python(dir, 'heldout-ppl/train.py', ['--out', 'model.npz']));
  }, TRAINING_MS);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('scores the trained artifact on held-out rows from a secret seed or a prefetched shard, with the same perplexity', () => {
    ok(python(dir, 'heldout-ppl/bench.py', ['--artifact', 'model.npz'], { HELDOUT_SEED: SECRET }));
    const fromSeed = metric(dir, 'heldout_ppl');
    expect(result(dir)).toMatchObject({ heldout_source: 'HELDOUT_SEED', parameter_count: 12_800 });

    ok(python(dir, 'tools/make_heldout.py', ['--seed', SECRET, '--out', 'shard.txt']));
    // The runner's names: the prefetched HELDOUT_URL arrives as HELDOUT_PATH, the artifact as ARTIFACT_PATH.
    ok(python(dir, 'heldout-ppl/bench.py', [], { HELDOUT_PATH: join(dir, 'shard.txt'), ARTIFACT_PATH: join(dir, 'model.npz') }));
    expect(result(dir)).toMatchObject({ heldout_source: 'HELDOUT_PATH' });
    expect(metric(dir, 'heldout_ppl')).toBeCloseTo(fromSeed, 9);
    // The source's own entropy is about 1.92 nats (ppl 6.8): a trained model comes close, an untrained one (32) does not.
    expect(fromSeed).toBeGreaterThan(6.5);
    expect(fromSeed).toBeLessThan(9);
    console.log(`heldout-ppl: float model heldout_ppl=${fromSeed.toFixed(4)}`);
  });

  it('refuses to run without a held-out source', () => {
    const run = python(dir, 'heldout-ppl/bench.py', ['--artifact', 'model.npz']);
    expectFailure(dir, run, /^Refused: no held-out source: the validator's environment sets neither HELDOUT_URL .* nor HELDOUT_SEED/);
  });

  it('refuses the public training seed as a held-out seed, and a shard that is not of this corpus', () => {
    expectFailure(dir, python(dir, 'heldout-ppl/bench.py', ['--artifact', 'model.npz'], { HELDOUT_SEED: 'train-0' }), /training seed/);
    const notCorpus = join(dir, 'model.npz');
    expectFailure(dir, python(dir, 'heldout-ppl/bench.py', ['--artifact', 'model.npz'], { HELDOUT_PATH: notCorpus }), /held-out shard/);
  });

  it('refuses a submission without an artifact and rejects an artifact of the wrong architecture', () => {
    expectFailure(dir, python(dir, 'heldout-ppl/bench.py', [], { HELDOUT_SEED: SECRET }), /^Refused: no artifact/);
    expectFailure(dir, python(dir, 'heldout-ppl/bench.py', ['--artifact', 'train.log'], { HELDOUT_SEED: SECRET }), /does not exist/);
    ok(python(dir, 'ternary/pack.py', ['--weights', 'model.npz', '--out', 'packed.npz']));
    expectFailure(dir, python(dir, 'heldout-ppl/bench.py', ['--artifact', 'packed.npz'], { HELDOUT_SEED: SECRET }), /^Ineligible: the artifact has no array 'emb'/);
  });
});

describe('ternary pack (centerless)', () => {
  let dir: string;

  /** Packs the trained weights and benchmarks them: heldout_ppl and compressed_bytes, as the result file has them. */
  function packAndScore(name: string, rescue: number, scaleGroup: number): { ppl: number; bytes: number; rescue: number } {
    ok(python(dir, 'ternary/pack.py', ['--out', name, '--rescue-fraction', String(rescue), '--scale-group', String(scaleGroup)]));
    ok(python(dir, 'ternary/bench.py', ['--artifact', name], { HELDOUT_SEED: SECRET }));
    return { ppl: metric(dir, 'heldout_ppl'), bytes: metric(dir, 'compressed_bytes'), rescue: metric(dir, 'rescue_fraction') };
  }

  beforeAll(() => {
    dir = workdir();
    ok(python(dir, 'ternary/train.py', []));
  }, TRAINING_MS);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives the rule scenarios: a first model, one ~0.01 nats worse and >= 20 % smaller, one ~0.1 nats worse', () => {
    const first = packAndScore('first.npz', 0.05, 8);
    const smaller = packAndScore('smaller.npz', 0.1, 32);
    const worse = packAndScore('worse.npz', 0.03, 64);
    const nats = (m: { ppl: number }) => Math.log(m.ppl) - Math.log(first.ppl);
    console.log(
      [
        `ternary first:   heldout_ppl=${first.ppl.toFixed(4)} compressed_bytes=${first.bytes} rescue=${first.rescue.toFixed(3)}`,
        `ternary smaller: heldout_ppl=${smaller.ppl.toFixed(4)} compressed_bytes=${smaller.bytes} rescue=${smaller.rescue.toFixed(3)} ` +
          `(+${nats(smaller).toFixed(4)} nats, ${(100 * (1 - smaller.bytes / first.bytes)).toFixed(1)} % smaller)`,
        `ternary worse:   heldout_ppl=${worse.ppl.toFixed(4)} compressed_bytes=${worse.bytes} (+${nats(worse).toFixed(4)} nats)`,
      ].join('\n'),
    );
    expect(first.bytes).toBe(6435);
    expect(smaller.bytes).toBe(4285);
    // Inside the 0.02-nat band, so the smaller model replaces the first on the secondary metric.
    expect(nats(smaller)).toBeGreaterThan(0.005);
    expect(nats(smaller)).toBeLessThan(0.015);
    expect(smaller.bytes).toBeLessThanOrEqual(0.8 * first.bytes);
    // Far outside the band: accepted, never the best.
    expect(nats(worse)).toBeGreaterThan(0.07);
    expect(nats(worse)).toBeLessThan(0.15);
    expect(first.rescue).toBeCloseTo(0.05, 2);
    expect(smaller.rescue).toBeCloseTo(0.1, 5);
  });

  it('rejects 12 % rescue with the counts, whatever the perplexity', () => {
    ok(python(dir, 'ternary/pack.py', ['--out', 'rescue12.npz', '--rescue-fraction', '0.12']));
    const run = python(dir, 'ternary/bench.py', ['--artifact', 'rescue12.npz'], { HELDOUT_SEED: SECRET });
    expectFailure(dir, run, /^Ineligible: 1536 of 12800 weights \(12\.0 %\) are 4-bit rescue, over the cap of 10 %\.$/);
  });

  it('refuses 12 % rescue in its setup check too, with no held-out data and a validator_rejection= line', () => {
    ok(python(dir, 'ternary/pack.py', ['--out', 'rescue12.npz', '--rescue-fraction', '0.12']));
    expect(python(dir, 'ternary/check.py', ['--artifact', 'rescue12.npz'])).toEqual({
      status: 1,
      stdout: '',
      stderr: 'validator_rejection=rescue_over_cap Ineligible: 1536 of 12800 weights (12.0 %) are 4-bit rescue, over the cap of 10 %.\n',
    });
    expect(python(dir, 'ternary/check.py', ['--artifact', 'missing.npz'])).toMatchObject({ status: 1, stderr: expect.stringMatching(/^validator_rejection=no_artifact Refused: no artifact/) });
    ok(python(dir, 'ternary/pack.py', ['--out', 'eligible.npz', '--rescue-fraction', '0.05']));
    expect(ok(python(dir, 'ternary/check.py', [], { ARTIFACT_PATH: 'eligible.npz' })).stdout).toBe('eligible\n');
  });

  it('rejects an artifact whose arrays do not fit the architecture, the layout or the format', () => {
    ok(python(dir, 'ternary/pack.py', ['--out', 'base.npz', '--rescue-fraction', '0.1', '--scale-group', '32']));
    // A float model where a packed one belongs, a binary pack, a file that is no .npz.
    expectFailure(dir, python(dir, 'ternary/bench.py', ['--artifact', 'weights.npz'], { HELDOUT_SEED: SECRET }), /^Ineligible: the artifact's format is None, this task takes 'ternary-v1'/);
    ok(python(dir, 'binary/pack.py', ['--out', 'binary.npz']));
    expectFailure(dir, python(dir, 'ternary/bench.py', ['--artifact', 'binary.npz'], { HELDOUT_SEED: SECRET }), /format is 'binary-v1'/);
    ok(python(dir, 'tools/make_heldout.py', ['--seed', SECRET, '--out', 'shard.txt']));
    expectFailure(dir, python(dir, 'ternary/bench.py', ['--artifact', 'shard.txt'], { HELDOUT_SEED: SECRET }), /^Ineligible: the artifact is not a loadable \.npz file/);
    // Codes for a smaller matrix than the architecture's: the layout's lengths no longer match.
    const truncate = [
      '-c',
      'import numpy as np, sys; d = dict(np.load(sys.argv[1])); d["w1.codes"] = d["w1.codes"][:-32]; np.savez(sys.argv[2], **d)',
      'base.npz',
      'short.npz',
    ];
    const edit = spawnSync('python3', truncate, { cwd: dir, encoding: 'utf8' });
    expect(edit.status).toBe(0);
    expectFailure(dir, python(dir, 'ternary/bench.py', ['--artifact', 'short.npz'], { HELDOUT_SEED: SECRET }), /^Ineligible: array 'w1\.codes' has shape \(\d+,\), the layout needs \(\d+,\)\.$/);
    // Unsorted rescue groups, and a compressed member that would unpack to 8 MB: refused before use.
    const edits: [string, RegExp][] = [
      ['d["w1.rescue_groups"] = d["w1.rescue_groups"][::-1].astype(np.uint8)', /^Ineligible: w1\.rescue_groups must be distinct, sorted group numbers in \[0, 48\)\.$/],
      ['d["w1.codes"] = np.zeros(1 << 23, np.uint8)', /^Ineligible: the artifact's member 'w1\.codes\.npy' unpacks to \d+ bytes, more than the 1048576/],
    ];
    for (const [change, sentence] of edits) {
      const script = `import numpy as np, sys; d = dict(np.load("base.npz")); ${change}; np.savez_compressed("edited.npz", **d)`;
      expect(spawnSync('python3', ['-c', script], { cwd: dir, encoding: 'utf8' }).status).toBe(0);
      expectFailure(dir, python(dir, 'ternary/bench.py', ['--artifact', 'edited.npz'], { HELDOUT_SEED: SECRET }), sentence);
    }
  });

  it('refuses to run without a held-out source', () => {
    ok(python(dir, 'ternary/pack.py', ['--out', 'plain.npz']));
    expectFailure(dir, python(dir, 'ternary/bench.py', ['--artifact', 'plain.npz']), /^Refused: no held-out source/);
  });
});

describe('binary pack (standard)', () => {
  let dir: string;
  const floor = { HELDOUT_SEED: SECRET, MAX_HELDOUT_PPL: '16' };

  beforeAll(() => {
    dir = workdir();
    ok(python(dir, 'binary/train.py', []));
  }, TRAINING_MS);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('scores a model at the budget: 90 % binary + 10 % scaled 4-bit', () => {
    ok(python(dir, 'binary/pack.py', ['--out', 'model.npz', '--rescue-fraction', '0.1', '--scale-group', '128']));
    ok(python(dir, 'binary/bench.py', ['--artifact', 'model.npz'], floor));
    const ppl = metric(dir, 'heldout_ppl');
    console.log(`binary at budget: heldout_ppl=${ppl.toFixed(4)} compressed_bytes=${metric(dir, 'compressed_bytes')} budget_bytes=${metric(dir, 'budget_bytes')}`);
    expect(result(dir)).toMatchObject({ compressed_bytes: 2305, budget_bytes: 2305, parameter_count: 12_800, rescue_fraction: 0.1 });
    expect(ppl).toBeLessThan(16);
  });

  it('rejects a model over the budget', () => {
    ok(python(dir, 'binary/pack.py', ['--out', 'big.npz', '--rescue-fraction', '0.1', '--scale-group', '64']));
    expectFailure(
      dir,
      python(dir, 'binary/bench.py', ['--artifact', 'big.npz'], floor),
      /^Ineligible: the packed model is 2485 bytes, over the budget of 2305 bytes \(90 % binary \+ 10 % scaled 4-bit for 12800 parameters\)\.$/,
    );
  });

  it('rejects a model above the quality floor of the validator environment, and refuses to run without a floor', () => {
    ok(python(dir, 'binary/pack.py', ['--out', 'plain.npz']));
    expectFailure(dir, python(dir, 'binary/bench.py', ['--artifact', 'plain.npz'], floor), /^Ineligible: the held-out perplexity \d+\.\d{4} is above the task's quality floor of 16\.$/);
    expectFailure(dir, python(dir, 'binary/bench.py', ['--artifact', 'plain.npz'], { HELDOUT_SEED: SECRET }), /^Refused: the validator's environment sets no usable quality floor MAX_HELDOUT_PPL/);
  });

  it('rejects more than 10 % rescue and refuses to run without a held-out source', () => {
    ok(python(dir, 'binary/pack.py', ['--out', 'rescue12.npz', '--rescue-fraction', '0.12']));
    expectFailure(dir, python(dir, 'binary/bench.py', ['--artifact', 'rescue12.npz'], floor), /over the cap of 10 %/);
    expectFailure(dir, python(dir, 'binary/bench.py', ['--artifact', 'rescue12.npz'], { MAX_HELDOUT_PPL: '16' }), /^Refused: no held-out source/);
  });
});
