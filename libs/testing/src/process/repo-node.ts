import { join } from 'node:path';

/** The repository's root: tests start its apps and scripts from their sources. */
export const REPO_ROOT = join(__dirname, '..', '..', '..', '..');

/** Loaded into every process a test starts: a query sent on a busy pg client throws there, as in the tests themselves. */
const ONE_QUERY_AT_A_TIME = join(REPO_ROOT, 'tools', 'jest', 'pg-one-query-at-a-time.js');

/** Node's arguments for a TypeScript file of the repository (then its own arguments), as tests run it: through SWC, with the pg guard. */
export function repoNodeArgs(...args: string[]): string[] {
  return ['-r', '@swc-node/register', '-r', ONE_QUERY_AT_A_TIME, ...args];
}
