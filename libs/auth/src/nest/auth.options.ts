import type { Redis } from 'ioredis';

/** Where the stake gate reads the chain (an adapter of `@rcs/chain` in the apps). */
export interface StakeSource {
  /** Alpha stake of `hotkey` on `netuid`, in rao. */
  alphaStake(hotkey: string, netuid: number): Promise<bigint>;
  /** The hotkey's uid on `netuid`, or null when it holds none. */
  uidOf(hotkey: string, netuid: number): Promise<number | null>;
}

export interface StakeGateOptions {
  source: StakeSource;
  netuid: number;
  /** `MINER_MIN_STAKE_RAO`. */
  minStakeRao: bigint;
  /** `STAKE_CACHE_SECONDS`: how long a pass or fail decision is kept in Redis (0: not cached). */
  cacheSeconds: number;
}

export interface AuthOptions {
  /** Holds replay nonces and stake decisions; owned (and closed) by the app. */
  redis: Redis;
  /** `AUTH_MAX_SKEW_SECONDS`. */
  maxSkewSeconds: number;
  adminTokens: string[];
  adminTokenSha256: string[];
  /** `VALIDATOR_HOTKEYS` or the admin-managed table, read on every validator request. */
  validatorHotkeys: () => Promise<string[]> | string[];
  /** null when `STAKE_CHECK=off`. */
  stake: StakeGateOptions | null;
  /** Redis key prefix of replay nonces (default `auth:replay:`). */
  replayKeyPrefix?: string;
  /** Redis key prefix of cached stake decisions (default `auth:stake:`). */
  stakeCacheKeyPrefix?: string;
}

export const AUTH_OPTIONS = Symbol('AUTH_OPTIONS');
