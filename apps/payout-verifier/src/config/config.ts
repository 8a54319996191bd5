import { readValidatorIdentity, type IdentitySource } from '@rcs/auth';
import { ChainConfig, readChainConfig } from '@rcs/chain';
import { ConfigError, EnvReader } from '@rcs/config';
import { readServiceBaseConfig, ServiceBaseConfig } from '@rcs/http';
import { join, resolve } from 'node:path';

export const VERIFIER_BOOTSTRAPS = ['history', 'latest'] as const;
export type VerifierBootstrap = (typeof VERIFIER_BOOTSTRAPS)[number];

/**
 * The verifier's own key settings (DECISIONS §16: `VERIFIER_*`, read like the validator's), each for the
 * validator's variable of the same role; with none of them set, the validator's own are used.
 */
const VERIFIER_KEY_VARIABLES: Record<string, string> = {
  VERIFIER_MNEMONIC: 'VALIDATOR_MNEMONIC',
  VERIFIER_SECRET_URI: 'VALIDATOR_SECRET_URI',
  VERIFIER_WALLET_NAME: 'BT_WALLET_NAME',
  VERIFIER_WALLET_PATH: 'BT_WALLET_PATH',
  VERIFIER_WALLET_HOTKEY: 'BT_WALLET_HOTKEY',
};

/** The environment the identity is read from: the `VERIFIER_*` keys in the validator's names when any is set. */
function identityEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const own = Object.keys(VERIFIER_KEY_VARIABLES).filter((name) => env[name]);
  if (own.length === 0) return env;
  const mapped: NodeJS.ProcessEnv = {};
  for (const name of own) mapped[VERIFIER_KEY_VARIABLES[name]] = env[name];
  return mapped;
}

export const NO_VERIFIER_IDENTITY =
  'no verifier identity: set VERIFIER_MNEMONIC, VERIFIER_SECRET_URI or VERIFIER_WALLET_NAME (or the validator’s VALIDATOR_MNEMONIC, VALIDATOR_SECRET_URI, BT_WALLET_NAME)';

export interface PayoutVerifierConfig extends ServiceBaseConfig {
  /** `VERIFIER_DATABASE_URL`; null: embedded Postgres under `embeddedDataDir`. */
  databaseUrl: string | null;
  databasePreparedStatements: boolean;
  embeddedDataDir: string;
  /** Where the reward snapshots are fetched by SHA-256. */
  coordinatorUrl: string;
  /** Where the epochs' records, allocation documents and recipient histories are read (`POOL_URL`). */
  poolUrl: string;
  /** Where `/claims/…` is mounted on the pool (`CLAIMS_MOUNT_PREFIX`). */
  claimsMountPrefix: string;
  chain: ChainConfig;
  identity: IdentitySource;
  /** `VERIFIER_BOOTSTRAP`: `history` judges every published epoch oldest first; `latest` starts at the newest. */
  bootstrap: VerifierBootstrap;
  /** `VERIFIER_INTERVAL_SECONDS`: one pass per interval (0: only when called, as tests do). */
  intervalSeconds: number;
  httpTimeoutMs: number;
}

export function loadPayoutVerifierConfig(env: NodeJS.ProcessEnv): PayoutVerifierConfig {
  const read = new EnvReader(env);
  const chain = readChainConfig(read, env);
  const keyRead = new EnvReader(identityEnv(env));
  const identity = readValidatorIdentity(keyRead);
  read.problems.push(...keyRead.problems);
  if (identity === null && read.problems.length === 0) read.problems.push(NO_VERIFIER_IDENTITY);
  const config = {
    ...readServiceBaseConfig(read, 'PAYOUT_VERIFIER_PORT', 8500),
    databaseUrl: read.optional('VERIFIER_DATABASE_URL'),
    databasePreparedStatements: read.bool('DATABASE_PREPARED_STATEMENTS', true),
    embeddedDataDir: join(resolve(process.cwd(), read.string('DATA_DIR', '.data')), 'payout-verifier'),
    coordinatorUrl: read.string('COORDINATOR_URL', 'http://127.0.0.1:8000').replace(/\/+$/, ''),
    poolUrl: read.string('POOL_URL', 'http://127.0.0.1:8434').replace(/\/+$/, ''),
    claimsMountPrefix: read.string('CLAIMS_MOUNT_PREFIX', '/claims').replace(/\/+$/, ''),
    bootstrap: read.oneOf('VERIFIER_BOOTSTRAP', VERIFIER_BOOTSTRAPS, 'history'),
    intervalSeconds: read.int('VERIFIER_INTERVAL_SECONDS', 30, 0, 7 * 24 * 3600),
    httpTimeoutMs: read.int('VERIFIER_HTTP_TIMEOUT_SECONDS', 30, 1, 3600) * 1000,
  };
  if (read.problems.length > 0 || identity === null || chain === null) throw new ConfigError(read.problems);
  return { ...config, identity, chain };
}

/** The one place this app reads the process environment. */
export function payoutVerifierConfigFromProcess(): PayoutVerifierConfig {
  return loadPayoutVerifierConfig(process.env);
}
