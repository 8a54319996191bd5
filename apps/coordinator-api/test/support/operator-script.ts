import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { childProcessBaseEnv } from '@rcs/testing';

const REPO_ROOT = join(__dirname, '..', '..', '..', '..');

export interface ScriptRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs an operator script of tools/ (e.g. `tools/round/main.ts`) exactly as an operator would. */
export async function runOperatorScript(script: string, args: string[]): Promise<ScriptRun> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['-r', '@swc-node/register', script, ...args], {
      cwd: REPO_ROOT,
      env: childProcessBaseEnv(),
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
