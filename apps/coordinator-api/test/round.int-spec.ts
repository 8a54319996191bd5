import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { mnemonicGenerate } from '@polkadot/util-crypto';
import { BtAuthSigner, cryptoReady, keypairFromUri } from '@rcs/auth';
import { startCoordinatorProcess, type RunningCoordinator, type TestDatabase } from '@rcs/testing';
import { createCoordinatorTestDatabase } from './harness';
import { runOperatorScript } from './support/operator-script';

/** The "done when": a scripted round over HTTP against the coordinator running as its own process. */
describe('scripted round against a running coordinator-api', () => {
  let coordinator: RunningCoordinator<TestDatabase>;

  beforeAll(async () => {
    await cryptoReady();
    coordinator = await startCoordinatorProcess({ database: await createCoordinatorTestDatabase() });
  }, 120_000);

  afterAll(async () => {
    await coordinator?.stop();
  });

  it('creates a task, claims it, submits a git diff, lists and reads the submission', async () => {
    const keyUri = mnemonicGenerate();
    const signer = new BtAuthSigner(await keypairFromUri(keyUri));
    const run = await runOperatorScript('tools/round/main.ts', ['--url', coordinator.service.url, '--admin-token', coordinator.adminToken, '--key-uri', keyUri, '--wait-seconds', '0']);

    expect(run).toMatchObject({ code: 0 });
    const steps = run.stdout
      .trim()
      .split('\n')
      .map((line) => line.split(':')[0]);
    expect(steps).toEqual(['repository', 'task', 'claim', 'patch', 'submission', 'list', 'detail', 'round']);
    const [, taskId, submissionId, status] = /round: ok \(task (\S+), submission ([^,\s]+), (\S+)\)/.exec(run.stdout) ?? [];
    expect(status).toBe('pending_verification');
    const rows = (await coordinator.db.dataSource.query(
      'SELECT task_id, miner_hotkey, status, patch, claim_id FROM submissions WHERE id = $1',
      [submissionId],
    )) as { task_id: string; miner_hotkey: string; status: string; patch: string; claim_id: string }[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ task_id: taskId, miner_hotkey: signer.hotkey, status: 'pending_verification' });
    expect(rows[0].patch).toMatch(/^diff --git a\/train\.py b\/train\.py\n/);
    expect(await coordinator.db.dataSource.query('SELECT status FROM claims WHERE id = $1', [rows[0].claim_id])).toEqual([{ status: 'submitted' }]);
    expect(await coordinator.db.dataSource.query('SELECT status FROM validator_jobs WHERE submission_id = $1', [submissionId])).toEqual([
      { status: 'pending' },
    ]);
  });

  it('keeps the task repository for the runner when no decision comes in time, and says where it is', async () => {
    const run = await runOperatorScript('tools/round/main.ts', ['--url', coordinator.service.url, '--admin-token', coordinator.adminToken, '--key-uri', mnemonicGenerate(), '--wait-seconds', '2']);
    expect(run).toMatchObject({ code: 0 });
    const [, repository] = /^repository: (\S+) at /m.exec(run.stdout) ?? [];
    expect(run.stdout).toContain(`decision: none within 2 s (is a validator runner running?); ${repository} is kept for the runner to clone`);
    // Before, the round removed it at once and the runner's clone failed: the decision was `error`.
    try {
      expect(existsSync(join(repository, '.git'))).toBe(true);
    } finally {
      rmSync(repository, { recursive: true, force: true });
    }
  });

  it('refuses a --wait-seconds that is not a whole number of seconds with exit code 2', async () => {
    const run = await runOperatorScript('tools/round/main.ts', ['--url', coordinator.service.url, '--admin-token', coordinator.adminToken, '--wait-seconds', 'soon']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--wait-seconds must be a whole number/);
  });

  it('stops at the first unexpected answer with exit code 1', async () => {
    const run = await runOperatorScript('tools/round/main.ts', ['--url', coordinator.service.url, '--admin-token', 'wrong-token']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/create task/);
    expect(run.stderr).toMatch(/401/);
  });
});
