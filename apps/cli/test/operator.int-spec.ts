import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mnemonicGenerate } from '@polkadot/util-crypto';
import { keypairFromUri } from '@rcs/auth';
import { benchTaskBody, startCoordinatorProcess, suiteTempDir, type RunningCoordinator } from '@rcs/testing';
import { EXIT } from '../src/errors';
import { rcs } from './support/run-cli';

/** The operator's and the validator's commands against the coordinator's real process. */
describe('rcs admin and validator commands against a running coordinator', () => {
  let dir = '';
  suiteTempDir('rcs-operator-', (path) => (dir = path));
  let coordinator: RunningCoordinator;
  let admin: NodeJS.ProcessEnv;
  let validator: NodeJS.ProcessEnv;
  let validatorHotkey = '';

  beforeAll(async () => {
    const validatorUri = mnemonicGenerate();
    validatorHotkey = (await keypairFromUri(validatorUri)).address;
    coordinator = await startCoordinatorProcess({ validatorHotkey, database: 'cli_operator' });
    admin = { HOME: join(dir, 'home'), RCS_COORDINATOR_URL: coordinator.url, RCS_ADMIN_TOKEN: coordinator.adminToken };
    validator = { HOME: join(dir, 'home'), RCS_COORDINATOR_URL: coordinator.url, RCS_KEY_URI: validatorUri };
  }, 180_000);

  afterAll(async () => {
    await coordinator?.stop();
  });

  async function createTask(): Promise<string> {
    const file = join(dir, `task-${Date.now()}.json`);
    writeFileSync(file, JSON.stringify(benchTaskBody('https://example.invalid/bench.git', 'a'.repeat(40))));
    const created = await rcs(['admin', 'task', 'create', '--file', file, '--json'], admin);
    expect(created).toMatchObject({ code: EXIT.ok });
    return (JSON.parse(created.stdout) as { id: string }).id;
  }

  it('admin task close: live → closed, and a second close is refused with the server\'s detail', async () => {
    const id = await createTask();
    expect(await rcs(['admin', 'task', 'close', id], admin)).toEqual({ code: EXIT.ok, stdout: `${id}: live → closed\n`, stderr: '' });
    expect(await rcs(['admin', 'task', 'close', id], admin)).toEqual({ code: EXIT.refused, stdout: '', stderr: 'rcs: refused (HTTP 409 invalid_task_transition): Cannot close a task that is closed.\n' });
  });

  it('admin policy get prints the policy; set --file replaces it, and get reads the change back', async () => {
    const got = await rcs(['admin', 'policy', 'get', '--json'], admin);
    expect(got.code).toBe(EXIT.ok);
    const { updated_at: _updatedAt, ...policy } = JSON.parse(got.stdout) as { updated_at: string; version: number; local_competition: Record<string, unknown> };
    const file = join(dir, 'policy.json');
    // A policy must carry a higher version than the stored one.
    writeFileSync(file, JSON.stringify({ ...policy, local_competition: { ...policy.local_competition, weight: 2.5 } }));
    expect(await rcs(['admin', 'policy', 'set', '--file', file], admin)).toMatchObject({ code: EXIT.refused, stderr: expect.stringContaining('stale_policy_version') });
    writeFileSync(file, JSON.stringify({ ...policy, version: policy.version + 1, local_competition: { ...policy.local_competition, weight: 2.5 } }));
    expect(await rcs(['admin', 'policy', 'set', '--file', file], admin)).toEqual({ code: EXIT.ok, stdout: `reward policy version ${policy.version + 1}\n`, stderr: '' });
    const after = await rcs(['admin', 'policy', 'get'], admin);
    expect(after.code).toBe(EXIT.ok);
    expect(JSON.parse(after.stdout)).toMatchObject({ version: policy.version + 1, local_competition: { weight: 2.5 } });
    const unauthorised = await rcs(['admin', 'policy', 'get'], { ...admin, RCS_ADMIN_TOKEN: 'not-the-token' });
    expect(unauthorised.code).toBe(EXIT.refused);
  });

  it('admin planner run runs the deterministic planner; --agentic is refused while no LLM endpoint is configured', async () => {
    expect(await rcs(['admin', 'planner', 'run'], admin)).toEqual({ code: EXIT.ok, stdout: 'created: 0\n', stderr: '' });
    expect(await rcs(['admin', 'planner', 'run', '--agentic'], admin)).toEqual({
      code: EXIT.refused,
      stdout: '',
      stderr: 'rcs: refused (HTTP 503 agentic_planner_unconfigured): The agentic planner is not configured: set PLANNER_LLM_BASE_URL and PLANNER_LLM_MODEL.\n',
    });
  });

  it('validator status shows what is leased to the signing hotkey', async () => {
    expect(await rcs(['validator', 'status'], validator)).toEqual({
      code: EXIT.ok,
      stdout: `hotkey:         ${validatorHotkey}\npending_jobs:   0\nleased_jobs:    0\nexpired_leases: 0\n`,
      stderr: '',
    });
  });

  it('peer-evaluate posts a signed evaluation; the server refuses one of an unknown submission (exit 1, its detail)', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(await rcs(['peer-evaluate', unknown, '--status', 'accepted', '--metric', 'loss=1'], validator)).toEqual({
      code: EXIT.refused,
      stdout: '',
      stderr: `rcs: refused (HTTP 404 submission_not_found): No submission with id ${unknown}.\n`,
    });
    expect(await rcs(['peer-evaluate', unknown, '--status', 'maybe'], validator)).toMatchObject({ code: EXIT.usage });
  });
});
