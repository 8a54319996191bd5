import { spawn } from 'node:child_process';
import { REPO_ROOT, repoNodeArgs } from './repo-node';


/** Runs a TypeScript script of the repository (path relative to its root, then its arguments) to its end: its exit code and everything it wrote. */
export function runScript(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, repoNodeArgs(...args), { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => resolve({ code, output }));
  });
}
