import { NO_VALIDATOR_IDENTITY, readValidatorIdentity, type IdentitySource } from '@rcs/auth';
import { ChainConfig, DEFAULT_DEV_DRAND_SEED, DEFAULT_DEV_TEMPO, readChainConfig } from '@rcs/chain';
import { ConfigError, EnvReader, readRedisUrl } from '@rcs/config';
import { readServiceBaseConfig, ServiceBaseConfig } from '@rcs/http';

export interface WeightSetterConfig extends ServiceBaseConfig {
  coordinatorUrl: string;
  identity: IdentitySource;
  redisUrl: string;
  redisKeyPrefix: string;
  chain: ChainConfig;
  /** `WEIGHTS_INTERVAL_SECONDS`: one pass per interval (job id per interval). */
  intervalSeconds: number;
  /** `WEIGHTS_DRY_RUN`: compute and log the vector, never submit. */
  dryRun: boolean;
  /** How long the owner lock lives without renewal; a standby takes over at most this long after the owner stops. */
  lockTtlMs: number;
  /** Tries of one pass (the first included) when it fails for a reason that may pass: coordinator, chain, extrinsic. */
  attempts: number;
  /** First wait before a retry; doubles each time. */
  retryBackoffMs: number;
  httpTimeoutMs: number;
  /** How long a submitted extrinsic may take to reach a block. */
  inclusionTimeoutMs: number;
  /** `dev` chain only: its `WeightsSetRateLimit`, `CommitRevealWeightsEnabled`, `Tempo` and drand beacon seed. */
  devChain: { weightsSetRateLimit: number; commitRevealWeightsEnabled: boolean; tempo: number; drandSeed: string };
}

export function loadWeightSetterConfig(env: NodeJS.ProcessEnv): WeightSetterConfig {
  const read = new EnvReader(env);
  const chain = readChainConfig(read, env);
  const identity = readValidatorIdentity(read);
  if (identity === null && read.problems.length === 0) read.problems.push(NO_VALIDATOR_IDENTITY);
  const config = {
    ...readServiceBaseConfig(read, 'WEIGHT_SETTER_PORT', 8200),
    coordinatorUrl: read.string('COORDINATOR_URL', 'http://127.0.0.1:8000').replace(/\/+$/, ''),
    identity,
    redisUrl: readRedisUrl(read),
    redisKeyPrefix: read.string('REDIS_KEY_PREFIX', 'rcs'),
    chain,
    intervalSeconds: read.int('WEIGHTS_INTERVAL_SECONDS', 300, 1, 7 * 24 * 3600),
    dryRun: read.bool('WEIGHTS_DRY_RUN', false),
    lockTtlMs: read.int('WEIGHTS_LOCK_TTL_SECONDS', 30, 1, 3600) * 1000,
    attempts: read.int('WEIGHTS_ATTEMPTS', 3, 1, 100),
    retryBackoffMs: read.int('WEIGHTS_RETRY_BACKOFF_MS', 5000, 0, 3_600_000),
    httpTimeoutMs: read.int('WEIGHTS_HTTP_TIMEOUT_SECONDS', 30, 1, 3600) * 1000,
    inclusionTimeoutMs: read.int('WEIGHTS_INCLUSION_TIMEOUT_SECONDS', 120, 1, 3600) * 1000,
    devChain: {
      weightsSetRateLimit: read.int('DEV_CHAIN_WEIGHTS_SET_RATE_LIMIT', 100, 0, 1_000_000),
      commitRevealWeightsEnabled: read.bool('DEV_CHAIN_COMMIT_REVEAL', true),
      tempo: read.int('DEV_CHAIN_TEMPO', DEFAULT_DEV_TEMPO, 1, 65_535),
      drandSeed: read.string('DEV_DRAND_SEED', DEFAULT_DEV_DRAND_SEED),
    },
  };
  if (read.problems.length > 0 || identity === null || chain === null) throw new ConfigError(read.problems);
  return { ...config, identity, chain };
}

/** The one place this app reads the process environment. */
export function weightSetterConfigFromProcess(): WeightSetterConfig {
  return loadWeightSetterConfig(process.env);
}
