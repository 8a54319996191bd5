import type { Redis } from 'ioredis';
import { DevChain, PolkadotConnection, PolkadotSubtensor, RedisDevWeightsStore, sharedDevGenesisMs, type SubtensorPort } from '@rcs/chain';
import type { WeightSetterConfig } from '../config/config';

/**
 * The chain the setter reads and writes. `dev`: the stack's one dev chain, its genesis and weights in
 * Redis under the stack's prefix (DECISIONS §9), so every process counts the same blocks and sees the
 * last weights set; `polkadot`: a Subtensor node.
 */
export async function createSubtensor(config: WeightSetterConfig, redis: Redis): Promise<SubtensorPort> {
  switch (config.chain.chain) {
    case 'dev':
      return new DevChain({
        seed: config.chain.devChainSeed,
        blockTimeMs: config.chain.devBlockTimeMs,
        genesisMs: await sharedDevGenesisMs(redis, config.redisKeyPrefix),
        weights: new RedisDevWeightsStore(redis, config.redisKeyPrefix),
        weightsSetRateLimit: config.devChain.weightsSetRateLimit,
        commitRevealWeightsEnabled: config.devChain.commitRevealWeightsEnabled,
      });
    case 'polkadot':
      return new PolkadotSubtensor(new PolkadotConnection(config.chain.wsUrl ?? '', config.chain.timeoutMs), config.inclusionTimeoutMs);
  }
}
