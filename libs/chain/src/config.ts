import { existsSync, readFileSync } from 'node:fs';
import { EnvReader, readRedisUrl } from '@rcs/config';
import { accountIdOf } from './address';
import { DEFAULT_DEV_BLOCK_TIME_MS } from './dev/dev-chain';
import { emptyDevChainSeed, parseDevChainSeed, type DevChainSeed } from './dev/dev-chain-seed';
import { ChainConfigError, errorText } from './errors';

export const CHAIN_KINDS = ['polkadot', 'dev'] as const;
export type ChainKind = (typeof CHAIN_KINDS)[number];

export const DEFAULT_CHAIN_TIMEOUT_MS = 10_000;
/** The apps' defaults (DECISIONS §10), so that every process of a stack finds one dev chain. */
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';
export const DEFAULT_REDIS_KEY_PREFIX = 'rcs';

export interface ChainConfig {
  chain: ChainKind;
  /** `CHAIN_WS_URL`; required for `polkadot`, unused by `dev`. */
  wsUrl: string | null;
  netuid: number;
  claimContractAddress: string | null;
  /** Path of the claim contract's ink! metadata JSON. */
  claimContractMetadataPath: string | null;
  /** `DEV_CHAIN_SEED` (dev only; empty otherwise). */
  devChainSeed: DevChainSeed;
  /** `DEV_CHAIN_BLOCK_TIME_MS` (dev only). */
  devBlockTimeMs: number;
  /** Bound on every chain call, connecting included. */
  timeoutMs: number;
  /** Where the dev chain keeps what every process of one stack must agree on (`REDIS_URL`, `REDIS_KEY_PREFIX`; DECISIONS §9). */
  devStore: { redisUrl: string; keyPrefix: string };
  /** `DEV_CLAIM_CHALLENGE_BLOCKS` (dev only): blocks from publication to `claims_open_at`. */
  devClaimChallengeBlocks: number;
}

export const CHAIN_ENV_NAMES = [
  'CHAIN',
  'CHAIN_WS_URL',
  'NETUID',
  'CLAIM_CONTRACT_ADDRESS',
  'CLAIM_CONTRACT_METADATA_PATH',
  'DEV_CHAIN_SEED',
  'DEV_CHAIN_BLOCK_TIME_MS',
  'CHAIN_TIMEOUT_MS',
  'REDIS_URL',
  'REDIS_CLUSTER_NODES',
  'REDIS_KEY_PREFIX',
  'DEV_CLAIM_CHALLENGE_BLOCKS',
] as const;
export type ChainEnvName = (typeof CHAIN_ENV_NAMES)[number];

/** Values an app uses when a variable is unset, written as the environment would write them. */
export type ChainEnvDefaults = Partial<Record<ChainEnvName, string>>;

/**
 * Reads the chain settings once at boot. `CHAIN` defaults to `polkadot` unless `defaults`
 * says otherwise (the local stack passes `dev`). Throws `ChainConfigError` listing every problem.
 */
export function chainConfigFromEnv(env: NodeJS.ProcessEnv, defaults: ChainEnvDefaults = {}): ChainConfig {
  const problems: string[] = [];
  const reader = new EnvReader(env, defaults);
  const read = (name: ChainEnvName): string | null => reader.optional(name);
  const integer = (name: ChainEnvName, min: number, max: number, fallback?: number): number => {
    const text = read(name);
    if (text === null) {
      if (fallback !== undefined) return fallback;
      problems.push(`${name} is required`);
      return min;
    }
    const value = Number(text);
    if (!/^\d+$/.test(text) || value < min || value > max) {
      problems.push(`${name} must be an integer ${min}..${max}, got ${JSON.stringify(text)}`);
      return min;
    }
    return value;
  };

  const chainText = read('CHAIN') ?? 'polkadot';
  const chain = CHAIN_KINDS.find((kind) => kind === chainText);
  if (!chain) problems.push(`CHAIN must be one of ${CHAIN_KINDS.join(', ')}, got ${JSON.stringify(chainText)}`);
  const netuid = integer('NETUID', 0, 65_535);
  const timeoutMs = integer('CHAIN_TIMEOUT_MS', 1, 600_000, DEFAULT_CHAIN_TIMEOUT_MS);
  const devBlockTimeMs = integer('DEV_CHAIN_BLOCK_TIME_MS', 1, 86_400_000, DEFAULT_DEV_BLOCK_TIME_MS);
  const devClaimChallengeBlocks = integer('DEV_CLAIM_CHALLENGE_BLOCKS', 0, 1_000_000, 0);
  // REDIS_CLUSTER_NODES puts the dev chain on a Redis Cluster, like the service's other clients.
  const redisProblems = reader.problems.length;
  const redisUrl = readRedisUrl(reader);
  if (chain === 'dev') problems.push(...reader.problems.slice(redisProblems));
  if (chain === 'dev' && !/^rediss?(\+cluster)?:\/\/\S+$/.test(redisUrl)) problems.push(`REDIS_URL must be a redis:// or rediss:// URL, got ${JSON.stringify(redisUrl.replace(/\/\/[^@/]*@/, '//***@'))}`);

  const wsUrl = read('CHAIN_WS_URL');
  if (chain === 'polkadot' && wsUrl === null) problems.push('CHAIN_WS_URL is required when CHAIN=polkadot');
  if (wsUrl !== null && !/^wss?:\/\/\S+$/.test(wsUrl)) {
    problems.push(`CHAIN_WS_URL must be a ws:// or wss:// URL, got ${JSON.stringify(wsUrl)}`);
  }
  const claimContractAddress = read('CLAIM_CONTRACT_ADDRESS');
  if (claimContractAddress !== null && !isAddress(claimContractAddress)) {
    problems.push(`CLAIM_CONTRACT_ADDRESS must be an SS58 address, got ${JSON.stringify(claimContractAddress)}`);
  }
  const seedSource = chain === 'dev' ? read('DEV_CHAIN_SEED') : null;
  const devChainSeed = seedSource === null ? emptyDevChainSeed() : loadDevChainSeed(seedSource, problems);

  if (!chain || problems.length > 0) throw new ChainConfigError(problems);
  return {
    chain,
    wsUrl,
    netuid,
    claimContractAddress,
    claimContractMetadataPath: read('CLAIM_CONTRACT_METADATA_PATH'),
    devChainSeed,
    devBlockTimeMs,
    timeoutMs,
    devStore: { redisUrl, keyPrefix: read('REDIS_KEY_PREFIX') ?? DEFAULT_REDIS_KEY_PREFIX },
    devClaimChallengeBlocks,
  };
}

function isAddress(value: string): boolean {
  try {
    accountIdOf(value);
    return true;
  } catch {
    return false;
  }
}

/** `DEV_CHAIN_SEED` is the JSON itself when it starts with `{`, else the path of a JSON file. */
function loadDevChainSeed(source: string, problems: string[]): DevChainSeed {
  let text = source;
  if (!source.startsWith('{')) {
    if (!existsSync(source)) {
      problems.push(`DEV_CHAIN_SEED is neither JSON nor an existing file: ${source}`);
      return emptyDevChainSeed();
    }
    text = readFileSync(source, 'utf8');
  }
  try {
    return parseDevChainSeed(JSON.parse(text));
  } catch (error) {
    problems.push(...(error instanceof ChainConfigError ? error.problems : [`DEV_CHAIN_SEED is not valid JSON: ${errorText(error)}`]));
    return emptyDevChainSeed();
  }
}

/**
 * An app config module's read of the chain settings: their problems join the app's own on `read`, so
 * a bad configuration is reported whole; null when there were any.
 */
export function readChainConfig(read: EnvReader, env: NodeJS.ProcessEnv): ChainConfig | null {
  try {
    return chainConfigFromEnv(env);
  } catch (error) {
    if (!(error instanceof ChainConfigError)) throw error;
    read.problems.push(...error.problems);
    return null;
  }
}
