import type { Redis } from 'ioredis';
import type { ChainConfig } from '../config';
import { withTimeout } from '../timeout';
import { DevChain, type DevChainOptions } from './dev-chain';
import { RedisDevWeightsStore, sharedDevGenesisMs } from './dev-weights-store';

/** How long a starting process waits for Redis to learn the stack's shared dev-chain genesis. */
const SHARED_GENESIS_WAIT_MS = 3_000;

/**
 * The dev chain of a local stack as every process should build it (DECISIONS §9: one chain): the
 * genesis time and the weights live in Redis under the stack's prefix, so processes count the same
 * blocks and read the same `LastUpdate`; stakes and uids come from the same `DEV_CHAIN_SEED`.
 * A Redis not ready at boot never fails the boot: see `bootGenesisMs`.
 */
export async function createSharedDevChain(
  config: ChainConfig,
  redis: Redis,
  prefix: string,
  options: Pick<DevChainOptions, 'weightsSetRateLimit' | 'commitRevealWeightsEnabled' | 'tempo' | 'drandSeed'> = {},
  warn: (message: string) => void = () => undefined,
): Promise<DevChain> {
  return new DevChain({
    ...options,
    seed: config.devChainSeed,
    blockTimeMs: config.devBlockTimeMs,
    genesisMs: await bootGenesisMs(redis, prefix, warn),
    weights: new RedisDevWeightsStore(redis, prefix),
    sharedGenesis: { redis, prefix },
  });
}

/**
 * The stack's genesis for a starting process: waits for the client to be ready (a fail-fast client,
 * without an offline queue, refuses commands until then), then reads it. No answer within
 * `SHARED_GENESIS_WAIT_MS`: says so and answers undefined (the chain counts from this process's
 * start and adopts the stack's genesis once Redis answers).
 */
export function bootGenesisMs(redis: Redis, prefix: string, warn: (message: string) => void): Promise<number | undefined> {
  return withTimeout(untilReady(redis).then(() => sharedDevGenesisMs(redis, prefix)), SHARED_GENESIS_WAIT_MS, () => noAnswer(SHARED_GENESIS_WAIT_MS)).catch((error: unknown) => {
    warn(`dev chain: Redis did not give the stack's shared genesis (${(error as Error).message}); counting blocks from this process's start`);
    return undefined;
  });
}

/** Settles when the dev chain's client is ready for commands (a fail-fast client refuses them until then), or rejects after `ms`. */
export function devRedisReady(redis: Redis, ms: number): Promise<void> {
  return withTimeout(untilReady(redis), ms, () => noAnswer(ms));
}

function untilReady(redis: Redis): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => redis.once('ready', () => resolve()));
}

function noAnswer(ms: number): Error {
  return new Error(`no answer within ${ms} ms`);
}
