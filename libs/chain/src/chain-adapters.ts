import { Cluster, Redis, RedisOptions } from 'ioredis';
import { clusterTarget } from '@rcs/queue';
import type { ChainConfig } from './config';
import { DevChain } from './dev/dev-chain';
import { DevClaimContract } from './dev/dev-claim-contract';
import { RedisDevWeightsStore } from './dev/dev-weights-store';
import { bootGenesisMs } from './dev/shared-dev-chain';
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

/**
 * Builds both ports for the configured chain; polkadot ports share one lazily opened connection.
 * `CHAIN=dev`: every process of a stack (one `REDIS_KEY_PREFIX`) shares one dev chain (DECISIONS §9):
 * its block 0 and its weights live in Redis, so the coordinator, the pool and the weight setter count
 * the same blocks. A process that cannot reach Redis at boot counts from its own start and says so,
 * and adopts the stack's genesis once Redis answers; a Redis that comes back empty gets it back.
 */
export async function createChainAdapters(config: ChainConfig, warn: (message: string) => void = () => undefined): Promise<ChainAdapters> {
  switch (config.chain) {
    case 'dev': {
      // Fails fast like the request paths' own Redis (no offline queue, no retries, a command timeout): a
      // claim or a block read during a Redis outage answers 503 redis_unavailable at once, not after ~10 s.
      const devRedis = devChainRedis(config.devStore.redisUrl, {
        connectionName: 'dev-chain',
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        commandTimeout: DEV_REDIS_COMMAND_TIMEOUT_MS,
      });
      reportOutages(devRedis, warn);
      const prefix = config.devStore.keyPrefix;
      const genesisMs = await bootGenesisMs(devRedis, prefix, warn);
      const devChain = new DevChain({
        seed: config.devChainSeed,
        blockTimeMs: config.devBlockTimeMs,
        genesisMs,
        weights: new RedisDevWeightsStore(devRedis, prefix),
        sharedGenesis: { redis: devRedis, prefix },
      });
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

/** Bound on one dev-chain Redis command: a Redis that accepts connections but does not answer. */
const DEV_REDIS_COMMAND_TIMEOUT_MS = 2000;

// One line when the connection is lost and one when it is back: ioredis errors on every reconnect attempt.
/** One server, or with REDIS_CLUSTER_NODES a Cluster (same commands; the dev chain's keys share one hash tag). */
export function devChainRedis(url: string, options: RedisOptions): Redis {
  const cluster = clusterTarget(url);
  if (cluster === null) return new Redis(url, options);
  return new Cluster(cluster.nodes, { redisOptions: { ...cluster.redisOptions, ...options }, enableOfflineQueue: false }) as unknown as Redis;
}

function reportOutages(redis: Redis, warn: (message: string) => void): void {
  let lost = false;
  redis.on('error', (error: Error) => {
    if (lost) return;
    lost = true;
    warn(`dev chain: Redis unreachable (${error.message}); its commands fail until it is back`);
  });
  redis.on('ready', () => {
    if (!lost) return;
    lost = false;
    warn('dev chain: Redis reachable again');
  });
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
