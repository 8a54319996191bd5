import { Redis } from 'ioredis';
import type { ChainConfig } from './config';
import { DevChain } from './dev/dev-chain';
import { DevClaimContract } from './dev/dev-claim-contract';
import { PolkadotClaimContract } from './polkadot/polkadot-claim-contract';
import { PolkadotConnection } from './polkadot/polkadot-connection';
import { PolkadotSubtensor } from './polkadot/polkadot-subtensor';
import type { ClaimContractPort } from './ports/claim-contract.port';
import type { SubtensorPort } from './ports/subtensor.port';

export interface ChainAdapters {
  subtensor: SubtensorPort;
  claimContract: ClaimContractPort;
  /** The dev chain behind both ports when `CHAIN=dev` (for admin mutators), else null. */
  devChain: DevChain | null;
  /** The dev chain's own Redis connection (its shared state), closed with the adapters. */
  devRedis?: Redis;
}

/** Builds both ports for the configured chain; polkadot ports share one lazily opened connection. */
export function createChainAdapters(config: ChainConfig): ChainAdapters {
  switch (config.chain) {
    case 'dev': {
      const devChain = new DevChain({ seed: config.devChainSeed, blockTimeMs: config.devBlockTimeMs });
      // Connects on first use: a process that never touches the contract never opens it.
      const devRedis = new Redis(config.devStore.redisUrl, { lazyConnect: true, connectionName: 'dev-chain' });
      const claimContract = new DevClaimContract(devChain, devRedis, config.devStore.keyPrefix, { challengeBlocks: config.devClaimChallengeBlocks });
      return { subtensor: devChain, claimContract, devChain, devRedis };
    }
    case 'polkadot': {
      const connection = new PolkadotConnection(config.wsUrl ?? '', config.timeoutMs);
      return {
        subtensor: new PolkadotSubtensor(connection),
        claimContract: new PolkadotClaimContract(connection, config.claimContractAddress, config.claimContractMetadataPath),
        devChain: null,
      };
    }
  }
}

export async function closeChainAdapters(adapters: ChainAdapters): Promise<void> {
  await Promise.all([adapters.subtensor.close(), adapters.claimContract.close()]);
  const redis = adapters.devRedis;
  if (redis && redis.status !== 'end') {
    if (redis.status === 'ready') {
      const ended = new Promise((resolve) => redis.once('end', resolve));
      await redis.quit();
      await ended;
    } else {
      redis.disconnect();
    }
  }
}
