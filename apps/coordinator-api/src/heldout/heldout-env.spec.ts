import { heldoutDownloadPath, jobBenchmarkEnv, shardSelector } from './heldout-env';

describe('held-out env convention', () => {
  it('reads `<NAME>_SHARD`: `coordinator` is any shard, `coordinator:<name>` the shards of that name', () => {
    expect(shardSelector({ HELDOUT_SHARD: 'coordinator', OTHER: '1' })).toEqual({ name: 'HELDOUT', shardName: null });
    expect(shardSelector({ EVAL_SHARD: 'coordinator:wiki-2024.bin' })).toEqual({ name: 'EVAL', shardName: 'wiki-2024.bin' });
    expect(shardSelector({ HELDOUT_URL: 'https://data.test/x', _SHARD: 'coordinator' })).toBeNull();
  });

  it('leaves any other `_SHARD` value alone: an ordinary variable for the benchmark, as before', () => {
    expect(shardSelector({ HELDOUT_SHARD: 'shard-7' })).toBeNull();
    const env = { HELDOUT_SHARD: 'shard-7', DATASET_MIX: 'private' };
    expect(jobBenchmarkEnv(env, null)).toBe(env);
  });

  it('honours the first coordinator `_SHARD` key by key order only', () => {
    expect(shardSelector({ B_SHARD: 'coordinator', A_SHARD: 'coordinator:one', '0_SHARD': 'plain' })).toEqual({ name: 'A', shardName: 'one' });
  });

  it("replaces the selector with the job's download URL and digest, dropping other sources of that name", () => {
    const env = { HELDOUT_SHARD: 'coordinator', HELDOUT_TOKEN: 't', MIX: 'a', OTHER_SHARD: 'coordinator', PLAIN_SHARD: 'x', EXT_URL: 'https://data.test/e' };
    expect(jobBenchmarkEnv(env, { url: `https://c.test${heldoutDownloadPath('j1')}`, sha256: 'ab' })).toEqual({
      MIX: 'a',
      PLAIN_SHARD: 'x',
      EXT_URL: 'https://data.test/e',
      HELDOUT_URL: 'https://c.test/api/v1/validator/jobs/j1/heldout',
      HELDOUT_SHA256: 'ab',
    });
  });

  it('leaves the source out when no shard was chosen, and an env without a selector untouched', () => {
    expect(jobBenchmarkEnv({ HELDOUT_SHARD: 'coordinator', MIX: 'a' }, null)).toEqual({ MIX: 'a' });
    const plain = { HELDOUT_URL: 'https://data.test/x', HELDOUT_TOKEN: 't' };
    expect(jobBenchmarkEnv(plain, null)).toBe(plain);
  });
});
