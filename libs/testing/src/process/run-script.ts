import { spawn } from 'node:child_process';
import { join } from 'node:path';

const REPO_ROOT = join(__dirname, '..', '..', '..', '..');
/** Loaded into every process a test starts: a query sent on a busy pg client throws there, as in the tests themselves. */
const ONE_QUERY_AT_A_TIME = join(REPO_ROOT, 'tools', 'jest', 'pg-one-query-at-a-time.js');

/** Runs a TypeScript script of the repository (path relative to its root, then its arguments) to its end: its exit code and everything it wrote. */
export function runScript(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-r', '@swc-node/register', '-r', ONE_QUERY_AT_A_TIME, ...args], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => resolve({ code, output }));
  });
}
