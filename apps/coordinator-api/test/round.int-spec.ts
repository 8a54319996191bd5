import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { mnemonicGenerate } from '@polkadot/util-crypto';
import { BtAuthSigner, cryptoReady, keypairFromUri } from '@rcs/auth';
import { sharedDataSourceOptions } from '@rcs/persistence';
import {
  childProcessBaseEnv,
  createTestDatabase,
  createTestRedis,
  spawnService,
  SpawnedService,
  TestDatabase,
  TestRedis,
} from '@rcs/testing';
import { COORDINATOR_ENTITIES, COORDINATOR_MIGRATIONS } from '../src/database';
import { COORDINATOR_TEMPLATE } from './harness';

const REPO_ROOT = join(__dirname, '..', '..', '..');

interface ScriptRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the operator's round script (tools/round/main.ts) exactly as an operator would. */
async function runRoundScript(args: string[]): Promise<ScriptRun> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['-r', '@swc-node/register', 'tools/round/main.ts', ...args],
      { cwd: REPO_ROOT, env: childProcessBaseEnv() },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** The "done when": a scripted round over HTTP against the coordinator running as its own process. */
describe('scripted round against a running coordinator-api', () => {
  let db: TestDatabase;
  let redis: TestRedis;
  let service: SpawnedService;
  const adminToken = randomBytes(16).toString('hex');

  beforeAll(async () => {
    await cryptoReady();
    db = await createTestDatabase({
      template: COORDINATOR_TEMPLATE,
      entities: COORDINATOR_ENTITIES,
      migrations: COORDINATOR_MIGRATIONS,
      dataSourceOptions: sharedDataSourceOptions(),
    });
    redis = await createTestRedis();
    service = await spawnService({
      entry: 'apps/coordinator-api/src/main.ts',
      portVariable: 'COORDINATOR_PORT',
      healthPath: '/healthz',
      env: {
        COORDINATOR_DATABASE_URL: db.url,
        REDIS_URL: redis.url,
        REDIS_KEY_PREFIX: redis.prefix,
        CHAIN: 'dev',
        NETUID: '1',
        STAKE_CHECK: 'off',
        ADMIN_TOKENS: adminToken,
      },
    });
  }, 120_000);

  afterAll(async () => {
    await service?.stop();
    await redis?.cleanup();
    await db?.drop();
  });

  it('creates a task, claims it, submits a git diff, lists and reads the submission', async () => {
    const keyUri = mnemonicGenerate();
    const signer = new BtAuthSigner(await keypairFromUri(keyUri));
    const run = await runRoundScript(['--url', service.url, '--admin-token', adminToken, '--key-uri', keyUri]);

    expect(run).toMatchObject({ code: 0 });
    const steps = run.stdout
      .trim()
      .split('\n')
      .map((line) => line.split(':')[0]);
    expect(steps).toEqual(['repository', 'task', 'claim', 'patch', 'submission', 'list', 'detail', 'round']);
    const [, taskId, submissionId] = /round: ok \(task (\S+), submission (\S+)\)/.exec(run.stdout) ?? [];
    const rows = (await db.dataSource.query(
      'SELECT task_id, miner_hotkey, status, patch, claim_id FROM submissions WHERE id = $1',
      [submissionId],
    )) as { task_id: string; miner_hotkey: string; status: string; patch: string; claim_id: string }[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ task_id: taskId, miner_hotkey: signer.hotkey, status: 'pending_verification' });
    expect(rows[0].patch).toMatch(/^diff --git a\/train\.py b\/train\.py\n/);
    expect(await db.dataSource.query('SELECT status FROM claims WHERE id = $1', [rows[0].claim_id])).toEqual([{ status: 'submitted' }]);
    expect(await db.dataSource.query('SELECT status FROM validator_jobs WHERE submission_id = $1', [submissionId])).toEqual([
      { status: 'pending' },
    ]);
  });

  it('stops at the first unexpected answer with exit code 1', async () => {
    const run = await runRoundScript(['--url', service.url, '--admin-token', 'wrong-token']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/create task/);
    expect(run.stderr).toMatch(/401/);
  });
});
