import { canonicalSs58 } from '@rcs/auth';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { ChainConfig, readChainConfig } from '@rcs/chain';
import { ConfigError, EnvReader } from '@rcs/config';
import { AdminTokenConfig, EventStreamSettings, readAdminTokenConfig, readEventStreamSettings, readServiceBaseConfig, readServiceStoresConfig, readTrustedProxies, ServiceBaseConfig, ServiceStoresConfig, TrustedProxies } from '@rcs/http';

/** Typed, validated once at boot (DECISIONS.md §10 names). */
/** `max` requests per hotkey per `windowSeconds`; `max` 0 turns the limit off. */
export interface RateLimit {
  max: number;
  windowSeconds: number;
}

export interface CoordinatorConfig extends ServiceBaseConfig, ServiceStoresConfig, AdminTokenConfig {
  validatorHotkeys: string[];
  stakeCheck: boolean;
  minerMinStakeRao: bigint;
  stakeCacheSeconds: number;
  authMaxSkewSeconds: number;
  claimTtlSeconds: number;
  leaseGraceSeconds: number;
  maxJobAttempts: number;
  allowInsecureArtifactUris: boolean;
  claimRateLimit: RateLimit;
  /** Base URL miners reach this service at (onboarding documents); unset: taken from the request. */
  publicBaseUrl: string | null;
  /** Peers whose `X-Forwarded-Proto`/`-Host` are believed when `publicBaseUrl` is unset, and whose `X-Forwarded-For` names the client an event stream counts against (`TRUSTED_PROXIES`). */
  trustedProxies: TrustedProxies;
  submissionRateLimit: RateLimit;
  chain: ChainConfig;
  /** How often the repeatable job expires claims past their TTL. */
  claimSweepIntervalSeconds: number;
  /** How often the repeatable job returns expired validator-job leases to the pool. */
  leaseSweepIntervalSeconds: number;
  /** How often the repeatable check rebuilds the reward snapshot when a change is not in it (or it is too old). */
  snapshotCheckIntervalSeconds: number;
  /** The check rebuilds a snapshot older than this even without a change, so score decay shows. */
  snapshotMaxAgeSeconds: number;
  /** `SNAPSHOT_HISTORY_DAYS`: how long a replaced snapshot stays readable by SHA-256 (DECISIONS §16). */
  snapshotHistoryDays: number;
  /**
   * `POOL_URL`: the pool whose epochs name these snapshots. Before pruning, the coordinator asks it which
   * snapshots an epoch still holding unclaimed value names (`GET /claims/retained-snapshots`) and keeps
   * those; when it cannot ask, it prunes nothing. Unset: pruning by age alone.
   */
  poolUrl: string | null;
  /** How often a timer outside Redis re-adds repeatable schedules a Redis restart lost. */
  scheduleCheckIntervalSeconds: number;
  /** How long the planner routes wait for their job before answering 504. */
  plannerRunTimeoutSeconds: number;
  plannerLlm: { baseUrl: string; model: string; apiKey: string | null; timeoutSeconds: number } | null;
  /** The public event stream (`GET /api/v1/events`): its bound, heartbeat and limits on open streams. */
  events: EventStreamSettings;
  /** Decay constant D of the reward scores, in days: each event weighs `exp(-(T - t)/D)` (DECISIONS §7). */
  scoreEmaDays: number;
  /** Private held-out delivery (DECISIONS.md §6): where shards live, by SHA-256, and the largest one accepted. */
  heldout: { storeDir: string; maxBytes: number };
  /**
   * The BitSota profile's rotation (DECISIONS §15): the key of each job's rotation number, and the rotation period of
   * tasks that set none (one payout window, POOL_WINDOW_BLOCKS × 12 s).
   */
  heldoutRotation: { secret: string; defaultSeconds: number };
}

/** Seconds per block: a payout window of POOL_WINDOW_BLOCKS blocks lasts this many times as long. */
const BLOCK_SECONDS = 12;

/** A comma-separated list of SS58 addresses, each in its canonical spelling (DECISIONS.md §2 Identity). */
function canonicalHotkeys(read: EnvReader, name: string): string[] {
  const hotkeys: string[] = [];
  for (const entry of read.list(name)) {
    const hotkey = canonicalSs58(entry);
    if (hotkey === null) read.problems.push(`${name} entries must be SS58 addresses (got "${entry}")`);
    else if (!hotkeys.includes(hotkey)) hotkeys.push(hotkey);
  }
  return hotkeys;
}

export function loadCoordinatorConfig(env: NodeJS.ProcessEnv, cwd = process.cwd()): CoordinatorConfig {
  const read = new EnvReader(env);
  const plannerBaseUrl = read.optional('PLANNER_LLM_BASE_URL');
  const plannerModel = read.optional('PLANNER_LLM_MODEL');
  if ((plannerBaseUrl === null) !== (plannerModel === null)) {
    read.problems.push('PLANNER_LLM_BASE_URL and PLANNER_LLM_MODEL must be set together');
  }
  const chain = readChainConfig(read, env);
  const trustedProxies = readTrustedProxies(read);
  const config: Omit<CoordinatorConfig, 'chain'> = {
    ...readServiceBaseConfig(read, 'COORDINATOR_PORT', 8000),
    ...readServiceStoresConfig(read, cwd, { databaseUrlVariable: 'COORDINATOR_DATABASE_URL', replicaUrlsVariable: 'COORDINATOR_DATABASE_REPLICA_URLS', dataDir: 'coordinator', keyPrefix: (base) => base, app: 'coordinator' }),
    ...readAdminTokenConfig(read),
    validatorHotkeys: canonicalHotkeys(read, 'VALIDATOR_HOTKEYS'),
    stakeCheck: read.bool('STAKE_CHECK', true),
    minerMinStakeRao: read.bigint('MINER_MIN_STAKE_RAO', 1n),
    stakeCacheSeconds: read.int('STAKE_CACHE_SECONDS', 60, 0, 86400),
    authMaxSkewSeconds: read.int('AUTH_MAX_SKEW_SECONDS', 300, 1, 3600),
    claimTtlSeconds: read.int('CLAIM_TTL_SECONDS', 2700, 1, 7 * 86400),
    leaseGraceSeconds: read.int('LEASE_GRACE_SECONDS', 900, 0, 86400),
    maxJobAttempts: read.int('MAX_JOB_ATTEMPTS', 3, 1, 100),
    allowInsecureArtifactUris: read.bool('ALLOW_INSECURE_ARTIFACT_URIS', false),
    publicBaseUrl: read.optional('PUBLIC_BASE_URL')?.replace(/\/+$/, '') ?? null,
    trustedProxies,
    claimRateLimit: {
      max: read.int('CLAIM_RATE_LIMIT_MAX', 30, 0, 1_000_000),
      windowSeconds: read.int('CLAIM_RATE_LIMIT_WINDOW_SECONDS', 3600, 1, 86400),
    },
    submissionRateLimit: {
      max: read.int('SUBMISSION_RATE_LIMIT_MAX', 30, 0, 1_000_000),
      windowSeconds: read.int('SUBMISSION_RATE_LIMIT_WINDOW_SECONDS', 3600, 1, 86400),
    },
    claimSweepIntervalSeconds: read.int('CLAIM_SWEEP_INTERVAL_SECONDS', 30, 1, 3600),
    leaseSweepIntervalSeconds: read.int('LEASE_SWEEP_INTERVAL_SECONDS', 30, 1, 3600),
    snapshotCheckIntervalSeconds: read.int('SNAPSHOT_CHECK_INTERVAL_SECONDS', 30, 1, 3600),
    snapshotMaxAgeSeconds: read.int('SNAPSHOT_MAX_AGE_SECONDS', 600, 1, 86400),
    snapshotHistoryDays: read.int('SNAPSHOT_HISTORY_DAYS', 90, 1, 36500),
    poolUrl: read.optional('POOL_URL')?.replace(/\/+$/, '') ?? null,
    scheduleCheckIntervalSeconds: read.int('SCHEDULE_CHECK_INTERVAL_SECONDS', 30, 1, 3600),
    plannerRunTimeoutSeconds: read.int('PLANNER_RUN_TIMEOUT_SECONDS', 120, 1, 3600),
    plannerLlm:
      plannerBaseUrl && plannerModel
        ? {
            baseUrl: plannerBaseUrl.replace(/\/+$/, ''),
            model: plannerModel,
            apiKey: read.optional('PLANNER_LLM_API_KEY'),
            timeoutSeconds: read.int('PLANNER_LLM_TIMEOUT_SECONDS', 60, 1, 3600),
          }
        : null,
    scoreEmaDays: read.positiveNumber('SCORE_EMA_DAYS', 10),
    events: readEventStreamSettings(read, trustedProxies),
    heldout: {
      storeDir: resolve(cwd, read.optional('HELDOUT_STORE_DIR') ?? join(read.string('DATA_DIR', '.data'), 'coordinator-heldout')),
      maxBytes: read.int('HELDOUT_MAX_BYTES', 1024 * 1024 * 1024, 1, Number.MAX_SAFE_INTEGER),
    },
    heldoutRotation: {
      // Unset: a random key per process, so numbers differ between replicas and restarts (a single local coordinator only).
      secret: read.optional('HELDOUT_ROTATION_SECRET') ?? randomBytes(32).toString('hex'),
      defaultSeconds: read.int('POOL_WINDOW_BLOCKS', 360, 1, 1_000_000) * BLOCK_SECONDS,
    },
  };
  if (config.plannerLlm && config.plannerLlm.timeoutSeconds >= config.plannerRunTimeoutSeconds) {
    read.problems.push('PLANNER_LLM_TIMEOUT_SECONDS must be below PLANNER_RUN_TIMEOUT_SECONDS');
  }
  if (read.problems.length > 0 || chain === null) throw new ConfigError(read.problems);
  return { ...config, chain };
}

/** The one place the coordinator reads the process environment. */
export function coordinatorConfigFromProcess(): CoordinatorConfig {
  return loadCoordinatorConfig(process.env);
}
