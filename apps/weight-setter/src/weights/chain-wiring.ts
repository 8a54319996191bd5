import { Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { createSharedDevChain, PolkadotConnection, PolkadotSubtensor, type SubtensorPort } from '@rcs/chain';
import type { WeightSetterConfig } from '../config/config';

/**
 * The chain the setter reads and writes. `dev`: the stack's one dev chain, its genesis and weights in
 * Redis under the stack's prefix (DECISIONS §9), a Redis not ready at boot said once and never fatal;
 * `polkadot`: a Subtensor node.
 */
export async function createSubtensor(config: WeightSetterConfig, redis: Redis): Promise<SubtensorPort> {
  switch (config.chain.chain) {
    case 'dev':
      return createSharedDevChain(config.chain, redis, config.redisKeyPrefix, config.devChain, (message) => new Logger('Chain').warn(message));
    case 'polkadot':
      return new PolkadotSubtensor(new PolkadotConnection(config.chain.wsUrl ?? '', config.chain.timeoutMs), config.inclusionTimeoutMs);
  }
}
