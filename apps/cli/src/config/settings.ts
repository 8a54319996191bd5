import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { expandHome } from '@rcs/auth';
import { CHAIN_ENV_NAMES } from '@rcs/chain';
import { CliUsageError } from '../errors';
import { stackChainEnv } from './stack-chain';

/**
 * Where `rcs` finds its services, identity and chain: a flag wins over the environment, the environment
 * over the config file (`$XDG_CONFIG_HOME/rcs/config.json`, else `$HOME/.config/rcs/config.json`), the
 * file over the defaults of the local stack (its chain settings read from its `DATA_DIR/stack.json`). Secrets are never read from flags in examples: `RCS_KEY_URI`.
 */
export interface CliSettings {
  coordinatorUrl: string;
  poolUrl: string;
  adminToken: string | null;
  identity: IdentitySettings;
  /** The chain variables of `@rcs/chain` (`CHAIN`, `CHAIN_WS_URL`, …), environment over the file's `chain` object. */
  chainEnv: Record<string, string>;
  configPath: string;
}

export interface IdentitySettings {
  keyUri: string | null;
  /** A Bittensor keyfile (a hotkey file as btcli writes it) named by its path, beside the wallet-name layout. */
  walletFile: string | null;
  walletName: string | null;
  walletHotkey: string;
  walletPath: string;
}

export interface SettingFlags {
  url?: string;
  poolUrl?: string;
  keyUri?: string;
  walletFile?: string;
  walletName?: string;
  walletHotkey?: string;
  walletPath?: string;
}

/** The config file's keys (all optional). */
export const CONFIG_KEYS = ['coordinator_url', 'pool_url', 'wallet_file', 'wallet_name', 'wallet_hotkey', 'wallet_path', 'chain'] as const;

export const DEFAULT_COORDINATOR_URL = 'http://127.0.0.1:8000';
export const DEFAULT_POOL_URL = 'http://127.0.0.1:8434';
/** The local stack's chain: the dev contract in the stack's Redis. */
export const DEFAULT_CHAIN_ENV: Record<string, string> = { CHAIN: 'dev', NETUID: '1' };

/** `$XDG_CONFIG_HOME/rcs/config.json`, else `$HOME/.config/rcs/config.json`. */
export function configFilePath(env: NodeJS.ProcessEnv): string {
  const xdg = env['XDG_CONFIG_HOME'];
  const base = xdg && isAbsolute(xdg) ? xdg : join(homeOf(env), '.config');
  return join(base, 'rcs', 'config.json');
}

export function readSettings(flags: SettingFlags, env: NodeJS.ProcessEnv): CliSettings {
  const configPath = configFilePath(env);
  const file = readConfigFile(configPath);
  const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
  const pick = (...values: unknown[]): string | null => values.map(text).find((value) => value !== null) ?? null;
  const fileChain = typeof file['chain'] === 'object' && file['chain'] !== null ? (file['chain'] as Record<string, unknown>) : {};
  const chainEnv: Record<string, string> = { ...DEFAULT_CHAIN_ENV };
  // Every variable the chain adapters read: a local stack with its own dev block time counts the same blocks as its pool.
  // The running stack's own settings (DATA_DIR/stack.json) come after the environment and the file.
  const stackChain = stackChainEnv(env);
  for (const name of CHAIN_ENV_NAMES) {
    const value = pick(env[name], fileChain[name], stackChain[name]);
    if (value !== null) chainEnv[name] = value;
  }
  return {
    coordinatorUrl: trimSlash(pick(flags.url, env['RCS_COORDINATOR_URL'], file['coordinator_url']) ?? DEFAULT_COORDINATOR_URL),
    poolUrl: trimSlash(pick(flags.poolUrl, env['RCS_POOL_URL'], file['pool_url']) ?? DEFAULT_POOL_URL),
    adminToken: pick(env['RCS_ADMIN_TOKEN']),
    identity: {
      keyUri: pick(flags.keyUri, env['RCS_KEY_URI']),
      walletFile: mapNullable(pick(flags.walletFile, env['RCS_WALLET_FILE'], file['wallet_file']), (path) => expandHome(path, homeOf(env))),
      // The validator runner's variables, so one wallet configuration serves both.
      walletName: pick(flags.walletName, env['BT_WALLET_NAME'], file['wallet_name']),
      walletHotkey: pick(flags.walletHotkey, env['BT_WALLET_HOTKEY'], file['wallet_hotkey']) ?? 'default',
      walletPath: expandHome(pick(flags.walletPath, env['BT_WALLET_PATH'], file['wallet_path']) ?? '~/.bittensor/wallets', homeOf(env)),
    },
    chainEnv,
    configPath,
  };
}

function readConfigFile(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new CliUsageError(`cannot read the config file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw new CliUsageError(`the config file ${path} is not JSON`);
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) throw new CliUsageError(`the config file ${path} must hold a JSON object`);
  const unknown = Object.keys(document).filter((key) => !(CONFIG_KEYS as readonly string[]).includes(key));
  if (unknown.length > 0) throw new CliUsageError(`the config file ${path} has unknown keys: ${unknown.join(', ')} (known: ${CONFIG_KEYS.join(', ')})`);
  return document as Record<string, unknown>;
}

function mapNullable<T, U>(value: T | null, map: (value: T) => U): U | null {
  return value === null ? null : map(value);
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** The wallet paths' `~` is the HOME of the environment the CLI was given. */
function homeOf(env: NodeJS.ProcessEnv): string {
  return env['HOME'] || homedir();
}

/** The process's environment: read here only (the config module of the app). */
export function processEnv(): NodeJS.ProcessEnv {
  return process.env;
}
