import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharedGenesisKey } from '@rcs/chain';
import { createTestRedis, testTempDir, type TestRedis } from '@rcs/testing';
import { anchorDevChain, DEV_CHAIN_RECORD } from './dev-chain-anchor';
import { StackError } from './redis';

/**
 * `npm start` keeps a DATA_DIR and its dev chain together: the chain (block 0, the claim contract) lives in
 * Redis, the databases in DATA_DIR. A Redis emptied under a kept DATA_DIR used to start a new chain at block 0,
 * and the pool's epochs were never published again (`npm run demo` waited 180 s for one).
 */
describe('the stack’s dev chain anchor (real Redis)', () => {
  let testRedis: TestRedis;
  let dataDir: string;
  const T0 = Date.UTC(2026, 10, 29, 12, 0, 0);

  testTempDir('stack-anchor-', (made) => (dataDir = made));
  beforeEach(async () => {
    testRedis = await createTestRedis();
  });
  afterEach(async () => {
    await testRedis.cleanup();
  });

  const store = () => ({ redisUrl: testRedis.url, keyPrefix: testRedis.prefix });
  const genesisInRedis = () => testRedis.redis.get(sharedGenesisKey(testRedis.prefix));
  const record = () => JSON.parse(readFileSync(join(dataDir, DEV_CHAIN_RECORD), 'utf8')) as Record<string, unknown>;
  const refusal = async (): Promise<string> => {
    const error: unknown = await anchorDevChain(dataDir, store(), T0 + 60_000).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(StackError);
    return (error as Error).message;
  };

  it('begins the chain on a new DATA_DIR and records its block 0 there; a restart keeps it', async () => {
    expect(await anchorDevChain(dataDir, store(), T0)).toEqual({ genesisMs: T0, began: true });
    expect(await genesisInRedis()).toBe(String(T0));
    expect(record()).toEqual({ key_prefix: testRedis.prefix, genesis_ms: T0, genesis: '2026-11-29T12:00:00.000Z' });

    expect(await anchorDevChain(dataDir, store(), T0 + 60_000)).toEqual({ genesisMs: T0, began: false });
    expect(await genesisInRedis()).toBe(String(T0));
  });

  it('joins the chain a Redis already holds when the DATA_DIR is new (deleted to start afresh)', async () => {
    await testRedis.redis.set(sharedGenesisKey(testRedis.prefix), String(T0 - 5_000));
    expect(await anchorDevChain(dataDir, store(), T0)).toEqual({ genesisMs: T0 - 5_000, began: false });
    expect(record()).toMatchObject({ genesis_ms: T0 - 5_000 });
  });

  it('refuses, writing nothing, when the Redis no longer holds the chain the DATA_DIR belongs to', async () => {
    await anchorDevChain(dataDir, store(), T0);
    await testRedis.redis.del(sharedGenesisKey(testRedis.prefix));

    const message = await refusal();
    expect(message).toContain(`${dataDir} belongs to the dev chain that began at 2026-11-29T12:00:00.000Z in the Redis at ${testRedis.url}`);
    expect(message).toContain('that Redis no longer holds it');
    expect(message).toContain(`Start afresh with another DATA_DIR, or delete ${dataDir}.`);
    expect(message).toContain('REDIS_URL=redis://127.0.0.1:6380');
    expect(await genesisInRedis()).toBeNull();
    expect(record()).toMatchObject({ genesis_ms: T0 });
  });

  it('refuses when the Redis holds another chain under the same prefix (another stack)', async () => {
    await anchorDevChain(dataDir, store(), T0);
    await testRedis.redis.set(sharedGenesisKey(testRedis.prefix), String(T0 + 1_000));

    expect(await refusal()).toContain(`holds a dev chain that began at 2026-11-29T12:00:01.000Z, not the one ${dataDir} belongs to (began 2026-11-29T12:00:00.000Z)`);
    expect(await genesisInRedis()).toBe(String(T0 + 1_000));
  });

  it('refuses a DATA_DIR of an earlier version (databases, no record) when the Redis holds no chain, and adopts the one it holds', async () => {
    mkdirSync(join(dataDir, 'pool'));
    expect(await refusal()).toContain(`${dataDir} holds the databases of an earlier stack, but the Redis at ${testRedis.url} (REDIS_KEY_PREFIX ${testRedis.prefix}) holds no dev chain for them`);
    expect(await genesisInRedis()).toBeNull();
    expect(existsSync(join(dataDir, DEV_CHAIN_RECORD))).toBe(false);

    await testRedis.redis.set(sharedGenesisKey(testRedis.prefix), String(T0));
    expect(await anchorDevChain(dataDir, store(), T0 + 60_000)).toEqual({ genesisMs: T0, began: false });
    expect(record()).toMatchObject({ genesis_ms: T0 });
  });

  it('names a record that is not one, instead of starting on it', async () => {
    writeFileSync(join(dataDir, DEV_CHAIN_RECORD), '{"genesis_ms": "soon"}');
    expect(await refusal()).toBe(`${join(dataDir, DEV_CHAIN_RECORD)} is not a dev-chain record (JSON with an integer genesis_ms); it belongs to its DATA_DIR: delete the two together`);
  });
});
