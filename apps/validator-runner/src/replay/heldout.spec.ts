import { heldoutSandboxEnv, planBenchmarkEnv } from './heldout';

describe('validator_benchmark_env convention', () => {
  it('splits sources (_URL) with their tokens (_TOKEN) from plain variables', () => {
    const plan = planBenchmarkEnv({
      HELDOUT_URL: 'https://h.test/a.jsonl',
      HELDOUT_TOKEN: 't1',
      MIX_URL: 'https://h.test/mix.json',
      ORPHAN_TOKEN: 't2',
      DATASET_MIX: 'a:1',
      'bad-name': 'x',
      _URL: 'https://h.test/nameless',
    });
    expect(plan.sources).toEqual([
      { name: 'HELDOUT', url: 'https://h.test/a.jsonl', token: 't1' },
      { name: 'MIX', url: 'https://h.test/mix.json', token: null },
    ]);
    expect(plan.plain).toEqual({ DATASET_MIX: 'a:1', _URL: 'https://h.test/nameless' });
    expect(plan.dropped).toEqual(['ORPHAN_TOKEN', 'bad-name']);
  });

  it('reads `<NAME>_SHA256` as the digest its URL must have (lowercased), never for the sandbox; alone it is a plain variable', () => {
    const plan = planBenchmarkEnv({ HELDOUT_URL: 'https://c.test/api/v1/validator/jobs/j/heldout', HELDOUT_SHA256: 'AB'.repeat(32), LONE_SHA256: 'cd' });
    expect(plan.sources).toEqual([{ name: 'HELDOUT', url: 'https://c.test/api/v1/validator/jobs/j/heldout', token: null, sha256: 'ab'.repeat(32) }]);
    expect(plan.plain).toEqual({ LONE_SHA256: 'cd' });
    expect(plan.dropped).toEqual([]);
  });

  it('gives the sandbox local paths and the manifest, never a URL or a token', () => {
    const plan = planBenchmarkEnv({ HELDOUT_URL: 'https://h.test/a.jsonl', HELDOUT_TOKEN: 't1', SEED: '7' });
    const manifest = { HELDOUT: { env: 'HELDOUT_PATH', path: '/w/job/heldout/HELDOUT/a.jsonl', bytes: 3, sha256: 'ab' } };
    expect(heldoutSandboxEnv(plan, manifest, '/w/job/heldout')).toEqual({
      SEED: '7',
      HELDOUT_PATH: '/w/job/heldout/HELDOUT/a.jsonl',
      HELDOUT_MANIFEST: '/w/job/heldout/manifest.json',
    });
    expect(heldoutSandboxEnv(planBenchmarkEnv({ SEED: '7' }), {}, '/h')).toEqual({ SEED: '7' });
  });
});
