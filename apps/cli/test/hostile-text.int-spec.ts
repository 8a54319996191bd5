import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EXIT } from '../src/errors';
import { rcs } from './support/run-cli';

const ESC = '\u001b';
/** What the attacker planted: a window title, clear-screen, hidden text, a carriage return over the line and 8-bit CSI. */
const HOSTILE = `${ESC}]0;owned\u0007${ESC}[2J${ESC}[H${ESC}[8mhidden${ESC}[0m\rover\u009b31m`;
/** Any C0 control but tab and newline, DEL, or any C1 control. */
const hasControls = (text: string): boolean =>
  [...text].some((c) => {
    const code = c.codePointAt(0) ?? 0;
    return (code < 0x20 && code !== 9 && code !== 10) || (code >= 0x7f && code <= 0x9f);
  });

/**
 * Issue 35 item 3: `rcs onboard` printed a hostile coordinator's escape sequences as received and `rcs tasks` passed
 * them in columns. For people every server-provided string is printed without terminal controls; `--json` stays
 * the server's bytes.
 */
describe('rcs prints server text without terminal controls', () => {
  let server: Server;
  let url = '';
  // Every field rcs reads, as the contract has it (rcs checks each answer against its DTO), hostile wherever it is text.
  const task = {
    id: `t1${HOSTILE}`,
    slug: `slug${HOSTILE}`,
    title: `Title${HOSTILE}`,
    repository: `https://example.invalid/r${HOSTILE}`,
    base_ref: `main${HOSTILE}`,
    allowed_patch_paths: [`src/**${HOSTILE}`],
    max_patch_bytes: 1000,
    time_budget_seconds: 60,
    secondary_metric_name: null,
    task_state: 'live',
    competition_mode: 'standard',
    metric_name: `loss${HOSTILE}`,
    metric_direction: 'minimize',
  };
  const tasksText = JSON.stringify([task]);
  const onboard = `# Onboarding${HOSTILE}\n\nRun the benchmark.\n`;
  const refusal = JSON.stringify({ detail: { error: `task_not_found${HOSTILE}`, message: `No task${HOSTILE}\nsecond line` } });

  beforeAll(async () => {
    server = createServer((request, response) => {
      const path = request.url ?? '';
      if (path.startsWith('/api/v1/tasks?')) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(tasksText);
      } else if (path.endsWith('/onboard.md')) {
        response.writeHead(200, { 'content-type': 'text/markdown' });
        response.end(onboard);
      } else if (path.endsWith('/best')) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ task_id: 't1', submission_id: `s${HOSTILE}`, metric_name: `loss${HOSTILE}`, metric_value: 0.5, miner_hotkey: `h${HOSTILE}` }));
      } else if (path === `/api/v1/tasks/${encodeURIComponent(task.id)}` || path === '/api/v1/tasks/t1') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(task));
      } else {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end(refusal);
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const run = (args: string[]) => rcs(args, { HOME: '/nonexistent-home', RCS_COORDINATOR_URL: url });

  it('rcs onboard: the Markdown without its controls', async () => {
    const result = await run(['onboard', 't1']);
    expect(result).toMatchObject({ code: EXIT.ok, stdout: '# Onboardinghiddenover31m\n\nRun the benchmark.\n' });
  });

  it('rcs tasks: columns without controls, aligned as shown', async () => {
    const result = await run(['tasks']);
    expect(result.code).toBe(EXIT.ok);
    expect(hasControls(result.stdout)).toBe(false);
    const [header, row] = result.stdout.split('\n');
    expect(row.indexOf('slughiddenover31m')).toBe(header.indexOf('SLUG'));
    expect(row.indexOf('live')).toBe(header.indexOf('STATE'));
  });

  it('rcs task: fields without controls', async () => {
    const result = await run(['task', 't1']);
    expect(result.code).toBe(EXIT.ok);
    expect(hasControls(result.stdout)).toBe(false);
    expect(result.stdout).toContain('Titlehiddenover31m');
  });

  it('a refusal: one clean line on stderr', async () => {
    const result = await run(['task', 'missing']);
    expect(result).toMatchObject({ code: EXIT.refused, stdout: '' });
    expect(result.stderr).toBe('rcs: refused (HTTP 404 task_not_foundhiddenover31m): No taskhiddenover31m second line\n');
  });

  it('--json keeps the server’s bytes, escapes and all', async () => {
    expect(await run(['tasks', '--json'])).toMatchObject({ code: EXIT.ok, stdout: `${tasksText}\n` });
    expect(await run(['task', 'missing', '--json'])).toMatchObject({ code: EXIT.refused, stdout: `${refusal}\n` });
  });
});
