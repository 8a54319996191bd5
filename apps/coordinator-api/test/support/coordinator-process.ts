import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { cryptoReady } from '@rcs/auth';
import { childProcessBaseEnv, createTestRedis, devCoordinatorEnv, spawnService, SpawnedService, TestDatabase, TestRedis } from '@rcs/testing';
import { createCoordinatorTestDatabase } from '../harness';

const REPO_ROOT = join(__dirname, '..', '..', '..', '..');

/** The coordinator as its own process (its real entry point), on this test file's database and Redis prefix. */
export interface CoordinatorProcess {
  service: SpawnedService;
  db: TestDatabase;
  redis: TestRedis;
  adminToken: string;
  stop(): Promise<void>;
}

export async function startCoordinatorProcess(env: NodeJS.ProcessEnv = {}): Promise<CoordinatorProcess> {
  await cryptoReady();
  const db = await createCoordinatorTestDatabase();
  const redis = await createTestRedis();
  const adminToken = randomBytes(16).toString('hex');
  const service = await spawnService({
    entry: 'apps/coordinator-api/src/main.ts',
    portVariable: 'COORDINATOR_PORT',
    healthPath: '/healthz',
    env: {
      ...devCoordinatorEnv(db.url, redis),
      ADMIN_TOKENS: adminToken,
      ...env,
    },
  });
  return {
    service,
    db,
    redis,
    adminToken,
    stop: async () => {
      await service.stop();
      await redis.cleanup();
      await db.drop();
    },
  };
}

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
