import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mnemonicGenerate, mnemonicToMiniSecret } from '@polkadot/util-crypto';
import { u8aToHex } from '@polkadot/util';
import { keypairFromUri } from '@rcs/auth';
import { benchTaskBody, suiteTempDir, type RunningCoordinator } from '@rcs/testing';
import { createTaskWithRcs, git, originRepo, startCoordinatorWithValidator, validatorOnce } from './support/bench-round';
import { startPoolProcess, type RunningPool } from './support/pool';

const ROOT = resolve(__dirname, '..', '..', '..');
const BENCH_PY = `import json
scale = float(open('model.py').read().split('=')[1])
json.dump({'loss': abs(scale - 2) * 2.5}, open('result.json', 'w'))
`;
/** DECISIONS §18's tools, and list_ideas (a centerless miner picks the idea it implements there). */
const TOOLS = [
  'best', 'build_claim', 'cancel_claim', 'check_patch', 'claim_task', 'claim_work_item', 'disclaimer', 'get_task', 'list_ideas', 'list_tasks',
  'list_work_items', 'my_rewards', 'onboarding', 'payout_status', 'peer_evaluate', 'set_recipient', 'submission_status', 'submit', 'watch',
];
/** A hung call fails the test instead of waiting for Jest's timeout. */
const CALL_TIMEOUT_MS = 60_000;

interface Called {
  isError: boolean;
  value: Record<string, unknown>;
  text: string;
}

/**
 * Issue 39: an agent mines through `rcs mcp` alone. The SDK's own client spawns `rcs mcp` (the checkout's bin) against
 * the coordinator's and the pool's real processes and plays a round through tools: list, onboard, claim, a bad patch
 * checked and refused (nothing sent), a good one submitted and watched to the decision of a real runner (bwrap where
 * installed), rewards and payout status read. Then: no secret in any tool result or log line, and a killed stack
 * answers tool errors, not hung calls.
 */
describe('rcs mcp, driven by the MCP SDK client', () => {
  let dir = '';
  suiteTempDir('rcs-mcp-', (path) => (dir = path));
  let coordinator: RunningCoordinator;
  let pool: RunningPool;
  let validatorUri: string;
  let minerMnemonic: string;
  let miner: string;
  let taskId: string;
  let client: Client;
  let transport: StdioClientTransport;
  let stderr = '';
  let stackUp = true;
  const transcript: { tool: string; args: Record<string, unknown>; result: string; progress?: string[] }[] = [];

  async function call(tool: string, args: Record<string, unknown> = {}, onprogress?: (message: string) => void): Promise<Called> {
    const progress: string[] = [];
    const result = await client.callTool({ name: tool, arguments: args }, undefined, {
      timeout: CALL_TIMEOUT_MS,
      ...(onprogress
        ? {
            onprogress: (p: { message?: string }) => {
              progress.push(p.message ?? '');
              onprogress(p.message ?? '');
            },
            resetTimeoutOnProgress: true,
          }
        : {}),
    });
    const text = (result.content as { type: string; text: string }[]).map((part) => part.text).join('');
    transcript.push({ tool, args, result: text, ...(onprogress ? { progress } : {}) });
    return { isError: result.isError === true, value: JSON.parse(text) as Record<string, unknown>, text };
  }

  beforeAll(async () => {
    minerMnemonic = mnemonicGenerate();
    miner = (await keypairFromUri(minerMnemonic)).address;
    ({ coordinator, validatorUri } = await startCoordinatorWithValidator({ database: 'cli_mcp' }));
    pool = await startPoolProcess({ coordinatorUrl: coordinator.url, budgetRao: 1_000_000n });
    const origin = originRepo(dir, { 'bench.py': BENCH_PY, 'model.py': 'SCALE = 1.0\n' });
    const body = benchTaskBody(`file://${origin.path}`, origin.ref, { slug: `mcp-${randomBytes(4).toString('hex')}`, title: 'MCP round' });
    taskId = await createTaskWithRcs(dir, body, { HOME: join(dir, 'home'), RCS_COORDINATOR_URL: coordinator.url, RCS_ADMIN_TOKEN: coordinator.adminToken });

    transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(ROOT, 'apps', 'cli', 'bin', 'rcs.js'), 'mcp'],
      cwd: dir,
      env: { PATH: process.env['PATH'] ?? '', HOME: join(dir, 'home'), RCS_COORDINATOR_URL: coordinator.url, RCS_POOL_URL: pool.url, RCS_KEY_URI: minerMnemonic, ...pool.chainEnv },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    client = new Client({ name: 'rcs-test-agent', version: '1.0.0' });
    await client.connect(transport);
  }, 240_000);

  afterAll(async () => {
    await client?.close();
    if (stackUp) {
      await pool?.stop();
      await coordinator?.stop();
    }
  });

  it('lists the tools of DECISIONS §18, destructive ones annotated so', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS);
    const destructive = tools.filter((tool) => tool.annotations?.destructiveHint === true).map((tool) => tool.name).sort();
    expect(destructive).toEqual(['cancel_claim', 'peer_evaluate', 'set_recipient', 'submit']);
    expect(tools.find((tool) => tool.name === 'submit')?.inputSchema).toMatchObject({ required: ['claim_id', 'summary'], additionalProperties: false });
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toContain(`rcs://tasks/${taskId}/onboard.md`);
    const read = await client.readResource({ uri: `rcs://tasks/${taskId}/onboard.md` });
    expect((read.contents[0] as { text: string }).text).toContain('Agent API Workflow');
  });

  it('plays a round through tools alone: claim, a bad patch refused with the rule named, a good one accepted, rewards and payout read', async () => {
    const tasks = await call('list_tasks', { state: 'live' });
    expect(JSON.stringify(tasks.value)).toContain(taskId);
    expect((await call('onboarding', { task_id: taskId })).value['markdown']).toContain('Agent API Workflow');
    expect((await call('disclaimer')).value).toMatchObject({ title: expect.any(String) as unknown });

    const claim = await call('claim_task', { task_id: taskId, description: 'tune SCALE' });
    expect(claim).toMatchObject({ isError: false, value: { task_id: taskId, status: 'active', miner_hotkey: miner } });
    const claimId = claim.value['id'] as string;

    const clone = join(dir, 'clone');
    git(dir, 'clone', '-q', join(dir, 'origin'), clone);
    writeFileSync(join(clone, 'bench.py'), `${BENCH_PY}# faster\n`);
    const checked = await call('check_patch', { claim_id: claimId, repo: clone });
    expect(checked.value).toMatchObject({ ok: false, files: ['bench.py'], violations: [{ type: 'patch_path_not_allowed' }] });
    const refused = await call('submit', { claim_id: claimId, repo: clone, summary: 'edits the benchmark' });
    expect(refused).toMatchObject({ isError: true, value: { error: 'patch_rejected', violations: [{ type: 'patch_path_not_allowed' }] } });
    // Nothing was sent: the claim is still active (the public claim read).
    expect(await (await fetch(`${coordinator.url}/api/v1/claims/${claimId}`)).json()).toMatchObject({ status: 'active' });

    git(clone, 'checkout', '--', 'bench.py');
    writeFileSync(join(clone, 'model.py'), 'SCALE = 1.75\n');
    expect((await call('check_patch', { task_id: taskId, repo: clone })).value).toMatchObject({ ok: true, files: ['model.py'], violations: [] });
    const submitted = await call('submit', { claim_id: claimId, repo: clone, summary: 'SCALE 1.75', claimed_metrics: { loss: 0.7 } });
    expect(submitted).toMatchObject({ isError: false, value: { status: 'pending_verification', claim_id: claimId, patch_files: ['model.py'] } });
    const submissionId = submitted.value['id'] as string;

    const progress: string[] = [];
    const watching = call('watch', { submission_id: submissionId, timeout_seconds: 180 }, (message) => progress.push(message));
    const runner = await validatorOnce(dir, coordinator.url, validatorUri);
    expect(runner.code === 0 ? 0 : runner.stdout + runner.stderr).toBe(0);
    const watched = await watching;
    expect(watched).toMatchObject({ isError: false, value: { status: 'accepted', best: { submission_id: submissionId, metric_value: 0.625 } } });
    expect(progress[0]).toBe(`watching ${submissionId}`);

    expect((await call('submission_status', { submission_id: submissionId })).value).toMatchObject({ submission: { status: 'accepted' }, verifications: [{ status: 'accepted', metric_value: 0.625 }] });
    expect((await call('best', { task_id: taskId })).value).toMatchObject({ best: { submission_id: submissionId } });
    expect((await call('my_rewards')).value).toMatchObject({ hotkey: miner, competitions: [{ task_id: taskId, accepted: 1, holds_best: true }] });

    const coldkey = (await keypairFromUri(mnemonicGenerate())).address;
    expect((await call('set_recipient', { coldkey })).value).toEqual({ hotkey: miner, recipient_coldkey: coldkey });
    const payout = await call('payout_status');
    expect(payout).toMatchObject({ isError: false, value: { hotkey: miner, recipient: { recipient_coldkey: coldkey } } });
    // The pool's first epoch closed before this miner had a result or a recipient: no package, so no claim to build.
    expect(payout.value['package']).toBeNull();
    expect(await call('build_claim')).toMatchObject({ isError: true, value: { error: 'refused', message: `no payout package for ${miner} yet` } });

    // Tool errors carry the service's code and message.
    expect(await call('cancel_claim', { claim_id: claimId })).toMatchObject({ isError: true, value: { error: 'claim_not_active', status: 409 } });
    expect(await call('get_task', { task_id: 'nope', extra: 1 })).toMatchObject({ isError: true, value: { error: 'invalid_arguments', problems: ['extra is not a parameter of this tool'] } });
    expect(await call('get_task', { task_id: 'nope' })).toMatchObject({ isError: true, value: { error: 'task_not_found', status: 404 } });
  }, 300_000);

  it('puts no secret in any tool result or log line', () => {
    const seed = u8aToHex(mnemonicToMiniSecret(minerMnemonic));
    const everything = `${transcript.map((entry) => entry.result).join('\n')}\n${stderr}`;
    expect(transcript.length).toBeGreaterThan(15);
    for (const secret of [minerMnemonic, minerMnemonic.split(' ').slice(0, 3).join(' '), seed, seed.slice(2)]) expect(everything).not.toContain(secret);
    // One log line per call, naming the tool and its outcome only.
    expect(stderr).toMatch(/rcs mcp: submit error patch_rejected/);
    expect(stderr).toMatch(/rcs mcp: watch ok/);
  });

  it('answers tool errors, not hung calls, once the stack is gone', async () => {
    stackUp = false;
    await pool.stop();
    await coordinator.stop();
    expect(await call('list_tasks')).toMatchObject({ isError: true, value: { error: 'unreachable' } });
    expect(await call('watch', { submission_id: 'x' })).toMatchObject({ isError: true, value: { error: 'unreachable' } });
    expect(await call('payout_status')).toMatchObject({ isError: true, value: { error: 'unreachable' } });
    // The round as an agent saw it, for the closing note (set RCS_MCP_TRANSCRIPT to keep it).
    const keep = process.env['RCS_MCP_TRANSCRIPT'];
    if (keep) writeFileSync(keep, `${JSON.stringify(transcript, null, 1)}\n`);
  }, 120_000);
});
