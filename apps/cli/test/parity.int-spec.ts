import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mnemonicGenerate } from '@polkadot/util-crypto';
import { keypairFromUri } from '@rcs/auth';
import { benchTaskBody, startCoordinatorProcess, suiteTempDir, type RunningCoordinator } from '@rcs/testing';
import { EXIT } from '../src/errors';
import { rcs, type CliRun } from './support/run-cli';

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@rcs.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, encoding: 'utf8' }).trim();
}

/**
 * Issue 39's parity with BitSota's miner client, against the coordinator's real process: `rcs signed-request` on signed
 * and public routes, `rcs submit --sidecar submission.json` with no `--task` (the claim is read by id), `rcs ideas`.
 */
describe('rcs parity with BitSota’s miner client', () => {
  let dir = '';
  suiteTempDir('rcs-parity-', (path) => (dir = path));
  let coordinator: RunningCoordinator;
  let env: NodeJS.ProcessEnv;
  let miner: string;
  let taskId: string;
  let baseRef: string;
  const runs: { args: string[]; run: CliRun }[] = [];
  const run = async (args: string[], extra: NodeJS.ProcessEnv = {}): Promise<CliRun> => {
    const result = await rcs(args, { ...env, ...extra });
    runs.push({ args, run: result });
    return result;
  };

  beforeAll(async () => {
    coordinator = await startCoordinatorProcess({ validatorHotkey: (await keypairFromUri(mnemonicGenerate())).address, database: 'cli_parity' });
    const origin = join(dir, 'origin');
    mkdirSync(origin);
    git(origin, 'init', '-q', '-b', 'main');
    writeFileSync(join(origin, 'bench.py'), 'print(1)\n');
    writeFileSync(join(origin, 'model.py'), 'SCALE = 1.0\n');
    git(origin, 'add', '.');
    git(origin, 'commit', '-q', '-m', 'baseline');
    baseRef = git(origin, 'rev-parse', 'HEAD');
    const minerUri = mnemonicGenerate();
    miner = (await keypairFromUri(minerUri)).address;
    env = { HOME: join(dir, 'home'), RCS_COORDINATOR_URL: coordinator.url, RCS_KEY_URI: minerUri, RCS_ADMIN_TOKEN: coordinator.adminToken };
    const taskFile = join(dir, 'task.json');
    writeFileSync(taskFile, JSON.stringify(benchTaskBody(`file://${origin}`, baseRef, { slug: `parity-${randomBytes(4).toString('hex')}`, competition_mode: 'centerless' })));
    taskId = (JSON.parse((await rcs(['admin', 'task', 'create', '--file', taskFile, '--json'], env)).stdout) as { id: string }).id;
  }, 180_000);

  afterAll(async () => {
    await coordinator?.stop();
    // The runs as a person saw them, for the closing note (set RCS_PARITY_TRANSCRIPT to keep them).
    const keep = process.env['RCS_PARITY_TRANSCRIPT'];
    if (keep) writeFileSync(keep, `${JSON.stringify(runs, null, 1)}\n`);
  });

  it('signed-request: a signed POST (the body text signed as sent), a signed read, and an unsigned call refused with the service’s code', async () => {
    const claimed = await run(['signed-request', '--method', 'post', '--path', `/api/v1/tasks/${taskId}/claim`, '--body-json', '{"claim_description": "via signed-request"}']);
    expect(claimed).toMatchObject({ code: EXIT.ok, stderr: `HTTP 201 (signed by ${miner})\n` });
    const claim = JSON.parse(claimed.stdout) as { id: string; miner_hotkey: string; participation_disclaimer: unknown };
    expect(claim).toMatchObject({ miner_hotkey: miner, participation_disclaimer: { code: 'no_reward_guarantee' } });

    const bodyFile = join(dir, 'empty.json');
    writeFileSync(bodyFile, '{}');
    expect(await run(['signed-request', '--method', 'POST', '--path', `/api/v1/claims/${claim.id}/cancel`, '--body-file', bodyFile])).toMatchObject({ code: EXIT.ok });

    const read = await run(['signed-request', '--path', '/api/v1/submissions', '--params-json', `{"task_id": "${taskId}", "limit": 5}`]);
    expect(read).toMatchObject({ code: EXIT.ok, stdout: '[]\n' });

    const unsigned = await run(['signed-request', '--path', '/api/v1/submissions', '--unsigned']);
    expect(unsigned.code).toBe(EXIT.refused);
    expect(JSON.parse(unsigned.stdout)).toMatchObject({ detail: { error: 'missing_signature' } });
    expect(unsigned.stderr).toMatch(/^rcs: refused \(HTTP 401 missing_signature\): /);
    expect(await run(['signed-request', '--path', '/api/v1/tasks', '--unsigned', '--params-json', '{"limit": 1}'])).toMatchObject({ code: EXIT.ok });
    expect(await run(['signed-request', '--path', '/x', '--body-json', '{'])).toMatchObject({ code: EXIT.usage, stderr: 'rcs: --body-json is not JSON\n' });
  });

  it('submit --sidecar reads BitSota’s submission.json, finds the task from the claim, and ideas lists the idea', async () => {
    const claimId = (JSON.parse((await run(['claim', taskId, '--json'])).stdout) as { id: string }).id;
    const clone = join(dir, 'clone');
    git(dir, 'clone', '-q', join(dir, 'origin'), clone);
    writeFileSync(join(clone, 'model.py'), 'SCALE = 1.75\n');
    const sidecar = join(dir, 'submission.json');
    writeFileSync(sidecar, JSON.stringify({ summary: 'SCALE 1.75', claimed_metrics: { loss: 0.7 }, base_ref: 'elsewhere', proposed_idea: 'Scale towards 2.', notes: 'kept', agent: 'codex' }));
    expect(await run(['submit', '--claim', claimId, '--repo', clone, '--sidecar', sidecar])).toMatchObject({ code: EXIT.usage, stderr: expect.stringContaining(`base_ref elsewhere is not the task's base ${baseRef}`) as unknown });

    writeFileSync(sidecar, JSON.stringify({ summary: 'SCALE 1.75', claimed_metrics: { loss: 0.7 }, base_ref: baseRef, proposed_idea: 'Scale towards 2.', execution_log: 'ran bench.py', notes: 'kept', agent: 'codex' }));
    const submitted = await run(['submit', '--claim', claimId, '--repo', clone, '--sidecar', sidecar, '--metric', 'model_bytes=13', '--json']);
    expect(submitted.code).toBe(EXIT.ok);
    expect(submitted.stderr).toContain("the sidecar's agent are not submission fields; not sent");
    expect(submitted.stderr).toContain("the sidecar's notes stay local");
    const submission = JSON.parse(submitted.stdout) as Record<string, unknown>;
    expect(submission).toMatchObject({ task_id: taskId, summary: 'SCALE 1.75', claimed_metrics: { loss: 0.7, model_bytes: 13 }, proposed_idea: 'Scale towards 2.', execution_log: 'ran bench.py', base_ref: baseRef });

    const ideas = await run(['ideas', taskId]);
    expect(ideas.code).toBe(EXIT.ok);
    expect(ideas.stdout).toMatch(new RegExp(`^SUBMISSION\\s+MINER\\s+STATUS\\s+IDEA\\n${submission['id'] as string}\\s+${miner}\\s+pending_verification\\s+Scale towards 2\\.\\n$`));
    expect(JSON.parse((await run(['ideas', taskId, '--json'])).stdout)).toEqual([expect.objectContaining({ submission_id: submission['id'], proposed_idea: 'Scale towards 2.' })]);
    expect(await run(['ideas', 'no-such-task'])).toMatchObject({ code: EXIT.refused, stderr: expect.stringContaining('task_not_found') as unknown });
  });
});
