import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The chain variables of the local stack running from `DATA_DIR` (default `.data`, as `npm run demo` finds
 * it): `npm start` records them in `DATA_DIR/stack.json` as `chain_env`. A stack on other ports has its own
 * Redis (where the dev chain and its claim contract live) and block time; without them `rcs payout` would
 * read another stack's contract and count other blocks. `{}` when no stack is recorded there.
 */
export function stackChainEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  let state: unknown;
  try {
    state = JSON.parse(readFileSync(join(resolve(env['DATA_DIR'] || '.data'), 'stack.json'), 'utf8'));
  } catch {
    return {};
  }
  const chain = typeof state === 'object' && state !== null ? (state as { chain_env?: unknown }).chain_env : undefined;
  if (typeof chain !== 'object' || chain === null || Array.isArray(chain)) return {};
  return Object.fromEntries(Object.entries(chain).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== ''));
}
