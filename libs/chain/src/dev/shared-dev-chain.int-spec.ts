import type { KeyringPair } from '@polkadot/keyring/types';
import { encodeAddress } from '@polkadot/util-crypto';
import { createTestRedis, type TestRedis } from '@rcs/testing';
import { chainConfigFromEnv } from '../config';
import { createSharedDevChain } from './shared-dev-chain';

const hotkey = (fill: number): string => encodeAddress(new Uint8Array(32).fill(fill), 42);

describe('the shared dev chain (real Redis)', () => {
  let redis: TestRedis;

  beforeAll(async () => {
    redis = await createTestRedis();
  });

  afterAll(() => redis.cleanup());

  it('two processes built on one Redis prefix share the genesis (so the blocks) and see the weights either set', async () => {
    const config = chainConfigFromEnv({ CHAIN: 'dev', NETUID: '1', DEV_CHAIN_SEED: JSON.stringify({ subnets: { '1': [{ hotkey: hotkey(1), stake: '1', uid: 0 }] } }) });
    const first = await createSharedDevChain(config, redis.redis, redis.prefix);
    const genesis = await redis.redis.get(`${redis.prefix}:devchain:genesis_ms`);
    const second = await createSharedDevChain(config, redis.redis, redis.prefix);
    expect(await redis.redis.get(`${redis.prefix}:devchain:genesis_ms`)).toBe(genesis);

    const inclusion = await first.setWeights({ address: hotkey(1) } as unknown as KeyringPair, { netuid: 1, uids: [0], values: [65_535], versionKey: 1 });
    expect((await second.lastUpdate(1))[0]).toBe(inclusion.block);
    expect((await second.weightsOf(1)).map((r) => r.txHash)).toEqual([inclusion.txHash]);
  });
});
