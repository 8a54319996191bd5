import { canonicalSs58 } from '@rcs/auth';
import { ChainConfig, readChainConfig } from '@rcs/chain';
import { DEFAULT_POOL_TASK_TYPE, POOL_TASK_TYPE_PATTERN } from '@rcs/contracts';
import { ConfigError, EnvReader } from '@rcs/config';
import { AdminTokenConfig, EventStreamSettings, readAdminTokenConfig, readEventStreamSettings, readServiceBaseConfig, readServiceStoresConfig, readTrustedProxies, ServiceBaseConfig, ServiceStoresConfig } from '@rcs/http';

/** Pool mining settings (DECISIONS.md §11). */
export interface PoolMiningConfig {
  defaultTaskType: string;
  seedFile: string | null;
  assignmentTimeoutSeconds: number;
  assignmentSweepIntervalSeconds: number;
  evalBatchSize: number;
  evolveParents: number;
  leaseEvolveBudget: number;
  /** Accept `sim_window_number` on leases (local simulations only). */
  devWindows: boolean;
  consensusK: number;
  toleranceRatio: number;
  toleranceAbs: number;
  maxEvaluations: number;
  minRewardActivity: number;
  sotaInitial: number;
  /** Decay constant D of reputation events, in days (like DECISIONS.md §7). */
  scoreEmaDays: number;
  /** Bounds of a submitted score (`POOL_SCORE_MIN`..`POOL_SCORE_MAX`), inclusive. */
  scoreMin: number;
  scoreMax: number;
  /** Batches and leases one owner coldkey gets per window (`POOL_BATCHES_PER_WINDOW`). */
  batchesPerWindow: number;
}

/** Sybil resistance (DECISIONS.md §11): the stake gate of every pool-wallet signed route and the owner cache. */
export interface PoolStakeConfig {
  /** `POOL_STAKE_CHECK`: off only in the local stack and tests. */
  check: boolean;
  /** `POOL_MIN_STAKE_RAO`: alpha stake a hotkey without a uid needs. */
  minStakeRao: bigint;
  /** `STAKE_CACHE_SECONDS`: how long stake decisions and owners are cached in Redis. */
  cacheSeconds: number;
}

/** Epochs, publication and claim routes (DECISIONS.md §8, §10). */
export interface PoolPayoutConfig {
  /** Rao split by each epoch (u64). */
  budgetUnits: bigint;
  /** Oldest stored snapshot an epoch may use when the coordinator cannot be reached. */
  snapshotMaxAgeSeconds: number;
  /** Where the reward snapshot is fetched (`GET {coordinatorUrl}/api/v1/reward-snapshot`). */
  coordinatorUrl: string;
  /** How often the rollover checks whether a window has ended (and retries a pending publication). */
  epochCheckSeconds: number;
  /** Attempts of one rollover job before the stored-snapshot fallback is taken. */
  snapshotAttempts: number;
  claimsEnabled: boolean;
  /** `/claims` by default; always starts with `/`, never ends with one. */
  claimsMountPrefix: string;
  claimSimulation: boolean;
  /** Mnemonic or secret URI of the publisher key; null = publication off. */
  publisherUri: string | null;
  /** Base URL the published `uri` (the allocation document) points at. */
  publicUrl: string;
}

/** Typed, validated once at boot (DECISIONS.md §10 names); Redis keys and BullMQ queues are prefixed `${REDIS_KEY_PREFIX}:pool`. */
export interface PoolServiceConfig extends ServiceBaseConfig, ServiceStoresConfig, AdminTokenConfig {
  /** Canonical SS58 (prefix 42). */
  validatorHotkeys: string[];
  authMaxSkewSeconds: number;
  /** The public event stream (`GET /api/v1/events`): its bound, heartbeat and limits on open streams (client addresses behind `TRUSTED_PROXIES`). */
  events: EventStreamSettings;
  windowBlocks: number;
  /** How often a timer outside Redis re-adds the repeatable schedules an emptied Redis lost. */
  scheduleCheckIntervalSeconds: number;
  chain: ChainConfig;
  mining: PoolMiningConfig;
  stake: PoolStakeConfig;
  payout: PoolPayoutConfig;
}

export function loadPoolServiceConfig(env: NodeJS.ProcessEnv, cwd = process.cwd()): PoolServiceConfig {
  const read = new EnvReader(env);
  const chain = readChainConfig(read, env);
  const validatorHotkeys = read.list('VALIDATOR_HOTKEYS').map((hotkey) => {
    const canonical = canonicalSs58(hotkey);
    if (canonical === null) read.problems.push(`VALIDATOR_HOTKEYS entries must be SS58 addresses (got "${hotkey}")`);
    return canonical ?? hotkey;
  });
  const defaultTaskType = read.string('POOL_DEFAULT_TASK_TYPE', DEFAULT_POOL_TASK_TYPE);
  if (!POOL_TASK_TYPE_PATTERN.test(defaultTaskType)) read.problems.push('POOL_DEFAULT_TASK_TYPE must match [a-z0-9_]{1,64}');
  const mining: PoolMiningConfig = {
    defaultTaskType,
    seedFile: read.optional('POOL_SEED_FILE'),
    assignmentTimeoutSeconds: read.int('POOL_ASSIGNMENT_TIMEOUT_SECONDS', 600, 1, 7 * 86400),
    assignmentSweepIntervalSeconds: read.int('POOL_ASSIGNMENT_SWEEP_SECONDS', 30, 1, 3600),
    evalBatchSize: read.int('POOL_EVAL_BATCH_SIZE', 8, 1, 64),
    evolveParents: read.int('POOL_EVOLVE_PARENTS', 4, 1, 64),
    leaseEvolveBudget: read.int('POOL_LEASE_EVOLVE_BUDGET', 1, 0, 1),
    devWindows: read.bool('POOL_DEV_WINDOWS', false),
    consensusK: read.int('POOL_CONSENSUS_K', 3, 1, 64),
    toleranceRatio: read.number('POOL_TOLERANCE_RATIO', 0.1, 0, 10),
    toleranceAbs: read.number('POOL_TOLERANCE_ABS', 1e-6, 0, 1e9),
    maxEvaluations: read.int('POOL_MAX_EVALUATIONS', 7, 1, 1000),
    minRewardActivity: read.int('POOL_MIN_REWARD_ACTIVITY', 3, 0, 1_000_000),
    sotaInitial: read.number('POOL_SOTA_INITIAL', 0, -1e300, 1e300),
    scoreEmaDays: read.number('SCORE_EMA_DAYS', 10, 1e-6, 1e6),
    scoreMin: read.number('POOL_SCORE_MIN', 0, -Number.MAX_VALUE, Number.MAX_VALUE),
    scoreMax: read.number('POOL_SCORE_MAX', 1, -Number.MAX_VALUE, Number.MAX_VALUE),
    batchesPerWindow: read.int('POOL_BATCHES_PER_WINDOW', 6, 1, 1_000_000),
  };
  if (!(mining.scoreMin < mining.scoreMax)) read.problems.push('POOL_SCORE_MIN must be below POOL_SCORE_MAX');
  if (mining.maxEvaluations < mining.consensusK) read.problems.push('POOL_MAX_EVALUATIONS must be at least POOL_CONSENSUS_K');
  const budgetUnits = read.bigint('POOL_EPOCH_BUDGET_UNITS', 1_000_000_000n);
  if (budgetUnits >= 1n << 64n) read.problems.push('POOL_EPOCH_BUDGET_UNITS must fit in u64');
  const mnemonic = read.optional('PUBLISHER_MNEMONIC');
  const secretUri = read.optional('PUBLISHER_SECRET_URI');
  if (mnemonic && secretUri) read.problems.push('set only one of PUBLISHER_MNEMONIC and PUBLISHER_SECRET_URI');
  const prefix = read.string('CLAIMS_MOUNT_PREFIX', '/claims').replace(/\/+$/, '');
  if (!/^\/[A-Za-z0-9._~/-]*$/.test(prefix) || prefix.length < 2) read.problems.push('CLAIMS_MOUNT_PREFIX must be a path like /claims');
  const base = readServiceBaseConfig(read, 'POOL_PORT', 8434);
  const payout: PoolPayoutConfig = {
    budgetUnits,
    snapshotMaxAgeSeconds: read.int('POOL_SNAPSHOT_MAX_AGE_SECONDS', 3600, 0, 365 * 86400),
    coordinatorUrl: read.string('COORDINATOR_URL', 'http://127.0.0.1:8000').replace(/\/+$/, ''),
    epochCheckSeconds: read.int('POOL_EPOCH_CHECK_SECONDS', 5, 1, 3600),
    snapshotAttempts: read.int('POOL_SNAPSHOT_ATTEMPTS', 3, 1, 100),
    claimsEnabled: read.bool('CLAIMS_ENABLED', true),
    claimsMountPrefix: prefix,
    claimSimulation: read.bool('CLAIM_SIMULATION', false),
    publisherUri: mnemonic ?? secretUri,
    publicUrl: read.string('POOL_PUBLIC_URL', `http://127.0.0.1:${base.port}`).replace(/\/+$/, ''),
  };
  // The simulated claim signs `claim_single` with the publisher key: on a real chain that spends real funds on demand.
  if (payout.claimSimulation && chain?.chain === 'polkadot') {
    read.problems.push('CLAIM_SIMULATION=true is only for CHAIN=dev: on a real chain the simulated claim route would sign claim_single with the publisher key');
  }
  const config: Omit<PoolServiceConfig, 'chain'> = {
    ...base,
    ...readServiceStoresConfig(read, cwd, { databaseUrlVariable: 'POOL_DATABASE_URL', replicaUrlsVariable: 'POOL_DATABASE_REPLICA_URLS', dataDir: 'pool', keyPrefix: (base) => `${base}:pool`, app: 'pool' }),
    ...readAdminTokenConfig(read),
    validatorHotkeys,
    authMaxSkewSeconds: read.int('AUTH_MAX_SKEW_SECONDS', 300, 1, 3600),
    events: readEventStreamSettings(read, readTrustedProxies(read)),
    windowBlocks: read.int('POOL_WINDOW_BLOCKS', 360, 1, 1_000_000),
    scheduleCheckIntervalSeconds: read.int('SCHEDULE_CHECK_INTERVAL_SECONDS', 30, 1, 3600),
    mining,
    stake: {
      check: read.bool('POOL_STAKE_CHECK', true),
      minStakeRao: read.bigint('POOL_MIN_STAKE_RAO', 1_000_000_000n),
      cacheSeconds: read.int('STAKE_CACHE_SECONDS', 60, 0, 86400),
    },
    payout,
  };
  if (read.problems.length > 0 || chain === null) throw new ConfigError(read.problems);
  return { ...config, chain };
}

/** The one place this app reads the process environment. */
export function poolServiceConfigFromProcess(): PoolServiceConfig {
  return loadPoolServiceConfig(process.env);
}
