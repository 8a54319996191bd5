import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { childProcessBaseEnv } from '../config';
import { createScratchDatabase } from '../database/scratch-database';
import { devCoordinatorEnv } from '../process/dev-coordinator-env';
import { REPO_ROOT, repoNodeArgs } from '../process/repo-node';
import { spawnService, type SpawnedService } from '../process/spawn-service';
import { createTestRedis, type TestRedis } from '../redis/test-redis';

/** A database the coordinator runs on: an empty one it migrates at boot, or a test's own, already migrated. */
export interface CoordinatorDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * The coordinator as operators run it (its real entry point), on a database of the calling test file and the
 * file's own Redis prefix, on the dev chain with the stake check off.
 */
export interface RunningCoordinator<D extends CoordinatorDatabase = CoordinatorDatabase> {
  service: SpawnedService;
  url: string;
  adminToken: string;
  db: D;
  redis: TestRedis;
  stop(): Promise<void>;
}

export interface CoordinatorProcessOptions<D extends CoordinatorDatabase> {
  /** A scratch database's name prefix (e.g. `runner_e2e`, so that a leftover one says whose it was), or a database of the test's own. */
  database: string | D;
  /** Set as VALIDATOR_HOTKEYS. */
  validatorHotkey?: string;
  /** Settings a test is about (e.g. HELDOUT_STORE_DIR, or ALLOW_INSECURE_ARTIFACT_URIS for artifacts on loopback HTTP). */
  env?: NodeJS.ProcessEnv;
}

export async function startCoordinatorProcess<D extends CoordinatorDatabase = CoordinatorDatabase>(options: CoordinatorProcessOptions<D>): Promise<RunningCoordinator<D>> {
  const [db, redis] = await Promise.all([
    typeof options.database === 'string' ? (createScratchDatabase(options.database) as Promise<CoordinatorDatabase> as Promise<D>) : Promise.resolve(options.database),
    createTestRedis(),
  ]);
  const adminToken = randomBytes(16).toString('hex');
  const service = await spawnService({
    entry: 'apps/coordinator-api/src/main.ts',
    portVariable: 'COORDINATOR_PORT',
    healthPath: '/healthz',
    timeoutMs: 120_000,
    env: {
      ...devCoordinatorEnv(db.url, redis),
      ...options.env,
      ADMIN_TOKENS: adminToken,
      ...(options.validatorHotkey === undefined ? {} : { VALIDATOR_HOTKEYS: options.validatorHotkey }),
    },
  });
  return {
    service,
    url: service.url,
    adminToken,
    db,
    redis,
    stop: async () => {
      await service.stop();
      await redis.cleanup();
      await db.drop();
    },
  };
}

export interface RunnerRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the validator runner's entry point with a command, as a validator would (`node -r @swc-node/register …/main.ts once`; the tests' pg guard loaded too). */
export function runValidatorRunner(args: string[], env: NodeJS.ProcessEnv, wrapper: string[] = []): Promise<RunnerRun> {
  const argv = [...wrapper, process.execPath, ...repoNodeArgs('apps/validator-runner/src/main.ts', ...args)];
  return new Promise((resolve) => {
    execFile(
      argv[0],
      argv.slice(1),
      { cwd: REPO_ROOT, env: { ...childProcessBaseEnv(), ...env }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/**
 * The body of a live task on a benchmark repository whose `python3 bench.py` writes `loss` to result.json and whose
 * miners may change model.py only (the runner's and the CLI's round tests); `overrides` add or replace fields.
 */
export function benchTaskBody(repository: string, baseRef: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    slug: `bench-${randomBytes(4).toString('hex')}`,
    title: 'Bench round',
    repository,
    base_ref: baseRef,
    benchmark_command: 'python3 bench.py',
    result_path: 'result.json',
    allowed_patch_paths: ['model.py'],
    metric_name: 'loss',
    metric_direction: 'minimize',
    competition_mode: 'standard',
    time_budget_seconds: 120,
    ...overrides,
  };
}
