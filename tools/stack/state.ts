import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * What `npm start` records in DATA_DIR/stack.json once the stack is ready: every service's URL and the
 * admin token, so that `npm run demo`, `round`, `modes` and `pool-round` find the stack of a second shell
 * (ports other than the defaults included) without flags, and its chain variables, so that `rcs payout`
 * verifies and claims on this stack's dev chain.
 */
export interface StackState {
  coordinator_url?: string;
  admin_token?: string;
  pool_url?: string | null;
  weight_setter_url?: string | null;
  validator_runner_url?: string | null;
  web_url?: string | null;
  /** The chain variables the stack's services run with (dev chain, its Redis and block time): `rcs payout` reads them. */
  chain_env?: Record<string, string>;
  pid?: number;
}

/** The state of the stack running from `DATA_DIR` (default `.data`), or `{}` when none is recorded. */
export function readStackState(dataDir: string | undefined): StackState {
  try {
    const parsed: unknown = JSON.parse(readFileSync(join(resolve(dataDir ?? '.data'), 'stack.json'), 'utf8'));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as StackState) : {};
  } catch {
    return {};
  }
}
