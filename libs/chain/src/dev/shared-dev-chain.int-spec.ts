import type { KeyringPair } from '@polkadot/keyring/types';
import { encodeAddress } from '@polkadot/util-crypto';
import { Redis } from 'ioredis';
import { createTestRedis, freePort, type TestRedis } from '@rcs/testing';
import { chainConfigFromEnv } from '../config';
import { sharedGenesisKey } from './dev-weights-store';
import { createSharedDevChain } from './shared-dev-chain';
import { encodeWeightsPayload, timelockEncrypt } from '@rcs/timelock';

const hotkey = (fill: number): string => encodeAddress(new Uint8Array(32).fill(fill), 42);

describe('the shared dev chain (real Redis)', () => {
  let redis: TestRedis;

  beforeAll(async () => {
    redis = await createTestRedis();
  });

  afterAll(() => redis.cleanup());

  it('two processes built on one Redis prefix share the genesis (so the blocks) and see the weights either set', async () => {
    const config = chainConfigFromEnv({ CHAIN: 'dev', NETUID: '1', DEV_CHAIN_SEED: JSON.stringify({ subnets: { '1': [{ hotkey: hotkey(1), stake: '1', uid: 0, owner: hotkey(9) }] } }) });
    const first = await createSharedDevChain(config, redis.redis, redis.prefix, { commitRevealWeightsEnabled: false });
    const genesis = await redis.redis.get(sharedGenesisKey(redis.prefix));
    const second = await createSharedDevChain(config, redis.redis, redis.prefix, { commitRevealWeightsEnabled: false });
    expect(await redis.redis.get(sharedGenesisKey(redis.prefix))).toBe(genesis);
    // Stakes, uids and owners come from the one seed, so every process answers them alike.
    expect(await Promise.all([first.ownerOf(hotkey(1)), second.ownerOf(hotkey(1))])).toEqual([hotkey(9), hotkey(9)]);

    const inclusion = await first.setWeights({ address: hotkey(1) } as unknown as KeyringPair, { netuid: 1, uids: [0], values: [65_535], versionKey: 1 });
    expect((await second.lastUpdate(1))[0]).toBe(inclusion.block);
    expect((await second.weightsOf(1)).map((r) => r.txHash)).toEqual([inclusion.txHash]);
  });

  it('keeps block 0 when Redis comes back empty and another process starts: the earliest genesis wins', async () => {
    const prefix = `${redis.prefix}:emptied`;
    const key = sharedGenesisKey(prefix);
    const config = chainConfigFromEnv({ CHAIN: 'dev', NETUID: '1', DEV_CHAIN_BLOCK_TIME_MS: '1000' });
    await redis.redis.set(key, String(Date.now() - 60_000));
    const running = await createSharedDevChain(config, redis.redis, prefix);
    const genesis = running.genesisMs;
    // Redis restarted empty, and another service restarted before anyone wrote block 0 back.
    await redis.redis.del(key);
    const restarted = await createSharedDevChain(config, redis.redis, prefix);
    expect(restarted.genesisMs).toBeGreaterThan(genesis);
    expect(await running.syncSharedGenesis()).toBe(genesis);
    expect(await restarted.syncSharedGenesis()).toBe(genesis);
    expect(Number(await redis.redis.get(key))).toBe(genesis);
    expect(restarted.currentBlock()).toBe(running.currentBlock());
    await Promise.all([running.close(), restarted.close()]);
  });

  it('a commit made through one process is revealed once, and every process sees the reveal', async () => {
    const prefix = `${redis.prefix}:reveal`;
    // Block 0 was 5.5 s ago with 1 s blocks: block 5 of netuid 1, tempo 10 (epoch 0 ends at block 8; the reveal epoch 1 starts at block 9).
    await redis.redis.set(sharedGenesisKey(prefix), String(Date.now() - 5_500));
    const config = chainConfigFromEnv({ CHAIN: 'dev', NETUID: '1', DEV_CHAIN_BLOCK_TIME_MS: '1000', DEV_CHAIN_SEED: JSON.stringify({ subnets: { '1': [{ hotkey: hotkey(1), stake: '1', uid: 0 }] } }) });
    const [first, second] = await Promise.all([0, 1].map(() => createSharedDevChain(config, redis.redis, prefix, { tempo: 10 })));
    const { publicKey, genesisTime } = await first.drandBeacon();
    // The first round out by block 2, long before the reveal epoch.
    const round = Math.floor((Date.now() / 1000 - 3.5 - genesisTime) / 3) + 1;
    const commit = timelockEncrypt(encodeWeightsPayload({ hotkey: new Uint8Array(32).fill(1), uids: [0], values: [65_535], versionKey: 0n }), round, publicKey);

    const inclusion = await first.commitTimelockedWeights({ address: hotkey(1) } as unknown as KeyringPair, { netuid: 1, commit, revealRound: BigInt(round), commitRevealVersion: 4 });
    expect(await second.timelockedCommits(1, hotkey(1))).toHaveLength(1);

    // Block 9 is 3.5 s away at most: both look until one of them has revealed it.
    const deadline = Date.now() + 10_000;
    while ((await second.uidWeights(1, 0)).length === 0 && Date.now() < deadline) await first.timelockedCommits(1, hotkey(1));
    expect(await Promise.all([first.uidWeights(1, 0), second.uidWeights(1, 0)])).toEqual([[[0, 65_535]], [[0, 65_535]]]);
    expect(await first.timelockedCommits(1, hotkey(1))).toEqual([]);
    const [record] = await second.weightsOf(1);
    expect(record).toMatchObject({ txHash: inclusion.txHash, block: 9 });
  });

  it('boots on a fail-fast client that is still connecting: waits for it, then reads the stack\'s genesis (no "Stream isn\'t writeable")', async () => {
    const prefix = `${redis.prefix}:connecting`;
    await redis.redis.set(sharedGenesisKey(prefix), '1000');
    const connecting = new Redis(redis.url, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    try {
      expect(connecting.status).not.toBe('ready');
      const chain = await createSharedDevChain(chainConfigFromEnv({ CHAIN: 'dev', NETUID: '1' }), connecting, prefix);
      expect(chain.genesisMs).toBe(1000);
      await chain.close();
    } finally {
      connecting.disconnect();
    }
  });

  it('boots when Redis never answers: says so once and counts from its own start', async () => {
    const unreachable = new Redis(`redis://127.0.0.1:${await freePort()}`, { enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => 200 });
    unreachable.on('error', () => undefined);
    const warnings: string[] = [];
    try {
      const before = Date.now();
      const chain = await createSharedDevChain(chainConfigFromEnv({ CHAIN: 'dev', NETUID: '1' }), unreachable, redis.prefix, {}, (message) => warnings.push(message));
      expect(chain.genesisMs).toBeGreaterThanOrEqual(before);
      expect(warnings).toEqual([expect.stringContaining("dev chain: Redis did not give the stack's shared genesis")]);
      await chain.close();
    } finally {
      unreachable.disconnect();
    }
  });
});
