import { spawn } from 'node:child_process';
import path from 'node:path';

export const workspaceRoot = path.resolve(__dirname, '../../..');

export interface TsRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a TypeScript file in a child Node process. PGlite loads its WebAssembly through a dynamic
 * import that Jest's VM sandbox refuses without --experimental-vm-modules, so it runs out here.
 */
export function runTs(file: string, args: string[]): Promise<TsRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', '@swc-node/register', file, ...args], { cwd: workspaceRoot });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
