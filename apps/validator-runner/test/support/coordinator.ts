import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { BtAuthSigner } from '@rcs/auth';
import { childProcessBaseEnv, createScratchDatabase, createTestRedis, devCoordinatorEnv, spawnService, SpawnedService, TestRedis } from '@rcs/testing';

export const REPO_ROOT = join(__dirname, '..', '..', '..', '..');

/**
 * The coordinator as operators run it (its real entry point), on an empty Postgres database of this test
 * file that it migrates at boot, and this file's Redis prefix. Another app's code is never imported.
 */
export interface RunningCoordinator {
  service: SpawnedService;
  url: string;
  adminToken: string;
  stop(): Promise<void>;
}

export async function startCoordinator(validatorHotkey: string): Promise<RunningCoordinator> {
  const db = await createScratchDatabase('runner_e2e');
  const redis: TestRedis = await createTestRedis();
  const adminToken = randomBytes(16).toString('hex');
  const service = await spawnService({
    entry: 'apps/coordinator-api/src/main.ts',
    portVariable: 'COORDINATOR_PORT',
    healthPath: '/healthz',
    timeoutMs: 120_000,
    env: {
      ...devCoordinatorEnv(db.url, redis),
      ADMIN_TOKENS: adminToken,
      VALIDATOR_HOTKEYS: validatorHotkey,
    },
  });
  return {
    service,
    url: service.url,
    adminToken,
    stop: async () => {
      await service.stop();
      await redis.cleanup();
      await db.drop();
    },
  };
}

export type Json = Record<string, unknown>;

/** One JSON request; admin-token or BT-AUTH-V1 signed (the exact text sent is the text signed). */
export async function call(
  baseUrl: string,
  method: 'GET' | 'POST',
  path: string,
  auth: { admin: string } | { signer: BtAuthSigner } | null,
  body?: Json,
): Promise<{ status: number; json: unknown }> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string> = {};
  if (auth !== null && 'admin' in auth) headers['X-Admin-Token'] = auth.admin;
  if (auth !== null && 'signer' in auth) Object.assign(headers, auth.signer.signRequest({ method, url: path, body: text }));
  if (text !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body: text });
  const raw = await response.text();
  return { status: response.status, json: raw === '' ? null : (JSON.parse(raw) as unknown) };
}

export interface RunnerRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the runner's entry point with a command, as a validator would (`node -r @swc-node/register …/main.ts once`). */
export function runRunner(args: string[], env: NodeJS.ProcessEnv, wrapper: string[] = []): Promise<RunnerRun> {
  const argv = [...wrapper, process.execPath, '-r', '@swc-node/register', 'apps/validator-runner/src/main.ts', ...args];
  return new Promise((resolve) => {
    execFile(
      argv[0],
      argv.slice(1),
      { cwd: REPO_ROOT, env: { ...childProcessBaseEnv(), ...env }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}
