import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mnemonicGenerate } from '@polkadot/util-crypto';
import { keypairFromUri } from '@rcs/auth';
import { startCoordinatorProcess, suiteTempDir, type RunningCoordinator } from '@rcs/testing';
import { EXIT } from '../src/errors';
import { rcs } from './support/run-cli';

/** BitSota's problem.yaml of a ternary-frontier task (DECISIONS §15). */
const PROBLEM_FILE = join(__dirname, 'fixtures', 'problem.yaml');
const PROBLEM = readFileSync(PROBLEM_FILE, 'utf8');

/** `rcs admin task import problem.yaml` (DECISIONS §15) against the coordinator's real process. */
describe('rcs admin task import', () => {
  let dir = '';
  suiteTempDir('rcs-import-', (path) => (dir = path));
  let coordinator: RunningCoordinator;
  let admin: NodeJS.ProcessEnv;

  beforeAll(async () => {
    coordinator = await startCoordinatorProcess({ validatorHotkey: (await keypairFromUri(mnemonicGenerate())).address, database: 'cli_import' });
    admin = { HOME: join(dir, 'home'), RCS_COORDINATOR_URL: coordinator.url, RCS_ADMIN_TOKEN: coordinator.adminToken };
  }, 180_000);

  afterAll(async () => {
    await coordinator?.stop();
  });

  it('creates the task BitSota’s problem.yaml describes, on the repository given', async () => {
    const repository = 'https://github.com/AlveusLabs/autoresearch-task-qwen3-0.6b-ternary-frontier.git';
    const created = await rcs(['admin', 'task', 'import', PROBLEM_FILE, '--repository', repository, '--base-ref', 'b'.repeat(40), '--json'], admin);
    expect(created).toMatchObject({ code: EXIT.ok });
    expect(JSON.parse(created.stdout)).toMatchObject({
      slug: 'ternary-frontier-import',
      repository,
      time_budget_seconds: 1800,
      metric_name: 'heldout_ppl',
      metric_direction: 'minimize',
      secondary_metric_name: 'compressed_bytes',
      secondary_metric_direction: 'minimize',
      allowed_patch_paths: ['pack/train.py'],
    });
  });

  it('refuses a field without a counterpart, naming it, and creates nothing', async () => {
    const file = join(dir, 'floor.yaml');
    writeFileSync(file, PROBLEM.replace('  tie_breakers:', '  acceptance_floor: 330.0\n  tie_breakers:').replace('ternary-frontier-import', 'not-created'));
    expect(await rcs(['admin', 'task', 'import', file, '--repository', 'https://example.invalid/r.git'], admin)).toEqual({
      code: EXIT.usage,
      stdout: '',
      stderr: `rcs: ${file}: objective.acceptance_floor has no counterpart in a task\n`,
    });
    const listed = await fetch(`${coordinator.url}/api/v1/tasks`);
    expect(JSON.stringify(await listed.json())).not.toContain('not-created');
  });
});
