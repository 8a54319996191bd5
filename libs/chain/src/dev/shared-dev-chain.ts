import type { Redis } from 'ioredis';
import type { ChainConfig } from '../config';
import { DevChain, type DevChainOptions } from './dev-chain';
import { RedisDevWeightsStore, sharedDevGenesisMs } from './dev-weights-store';

/**
 * The dev chain of a local stack as every process should build it (DECISIONS §9: one chain): the
 * genesis time and the weights live in Redis under the stack's prefix, so processes count the same
 * blocks and read the same `LastUpdate`; stakes and uids come from the same `DEV_CHAIN_SEED`.
 */
export async function createSharedDevChain(
  config: ChainConfig,
  redis: Redis,
  prefix: string,
  options: Pick<DevChainOptions, 'weightsSetRateLimit' | 'commitRevealWeightsEnabled' | 'tempo' | 'drandSeed'> = {},
): Promise<DevChain> {
  return new DevChain({
    ...options,
    seed: config.devChainSeed,
    blockTimeMs: config.devBlockTimeMs,
    genesisMs: await sharedDevGenesisMs(redis, prefix),
    weights: new RedisDevWeightsStore(redis, prefix),
    sharedGenesis: { redis, prefix },
  });
}
