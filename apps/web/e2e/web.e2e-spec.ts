import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type Page } from 'playwright-core';
import { BtAuthSigner, keypairFromUri } from '@rcs/auth';
import { e2eConfig } from './config';
import { startDemoStack, type DemoStack } from './demo-stack';

const ROOT = join(__dirname, '..', '..', '..');
/** Screenshots of every page, a test artifact (tmp/ is ignored by git). */
const ARTIFACTS = join(ROOT, 'tmp', 'web-e2e');
const CHROMIUM = e2eConfig.chromiumPath;

let stack: DemoStack;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  stack = await startDemoStack();
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
}, 60_000);

interface Opened {
  page: Page;
  /** Console errors and uncaught exceptions seen so far. */
  errors: string[];
  /** The dashboard GETs the page sent until it had loaded. */
  dashboardReads: string[];
}

/** Opens a page of the app and waits until nothing says "Loading" any more. */
async function open(hash: string): Promise<Opened> {
  // A context of its own: axe needs one, and no page shares another's cache.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('crash', () => errors.push('page: the renderer crashed'));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`page: ${error.message}`));
  const dashboardReads: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/api/v1/dashboard')) dashboardReads.push(request.url());
  });
  page.on('response', (response) => {
    if (response.status() >= 400) errors.push(`http: ${response.status()} ${response.url()}`);
  });
  // Whatever the Content-Security-Policy refuses (an inline script or style, eval, a connection) is an error too.
  await page.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (event) => console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'}`)),
  );
  await page.goto(`${stack.web}/${hash}`);
  await page.locator('main h1').first().waitFor();
  await page.waitForFunction(() => !document.querySelector('main [role=status]')?.textContent?.startsWith('Loading'));
  return { page, errors, dashboardReads: [...dashboardReads] };
}

async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help} (${v.nodes.length})`);
}

async function demoTask(): Promise<{ id: string; title: string; best: number }> {
  const dashboard = (await (await fetch(`${stack.coordinator}/api/v1/dashboard`)).json()) as { tasks: { id: string; title: string; slug: string; best: { metric_value: number } | null }[] };
  const task = dashboard.tasks.find((t) => t.slug.startsWith('demo-') && t.best !== null);
  if (!task?.best) throw new TypeError('the demo left no competition with a best result');
  return { id: task.id, title: task.title, best: task.best.metric_value };
}

const sixDigits = (value: number) => String(Number(value.toPrecision(6)));

describe('the web UI against a stack populated by the demo round', () => {
  it('lists the demo competition with its state, mode, metric and best result', async () => {
    const task = await demoTask();
    const { page, errors, dashboardReads } = await open('#/competitions');
    const row = page.locator(`tr[data-task-id="${task.id}"]`);
    // index.html sends the dashboard read before the app's script runs; the page takes that one, never a second.
    expect(dashboardReads).toHaveLength(1);
    await expect(row.locator('th a').textContent()).resolves.toBe(task.title);
    await expect(row.textContent()).resolves.toContain('standard');
    await expect(row.textContent()).resolves.toContain('mse (minimize)');
    await expect(row.locator('.best-value').textContent()).resolves.toBe(sixDigits(task.best));
    await expect(row.locator('.hotkey code').first().getAttribute('title')).resolves.toBe(stack.bestMiner);
    await page.screenshot({ path: join(ARTIFACTS, 'competitions.png'), fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    // Closing the context closes the page; awaited, so nothing is left closing while the next test runs.
    await page.context().close();
  });

  it('shows one competition: onboarding link, best result, a history point in chart and table, ranked results', async () => {
    const task = await demoTask();
    const { page, errors } = await open(`#/competitions/${task.id}`);
    await expect(page.locator('main h1').textContent()).resolves.toBe(task.title);
    await expect(page.getByRole('link', { name: 'onboard.md' }).getAttribute('href')).resolves.toBe(`${stack.coordinator}/api/v1/tasks/${task.id}/onboard.md`);
    await expect(page.locator('#best ~ p .best-value').textContent()).resolves.toBe(`mse ${sixDigits(task.best)}`);
    expect(await page.locator('tr.history-point').count()).toBeGreaterThanOrEqual(1);
    await page.locator('.chart canvas').first().waitFor();
    // The demo accepted two results, the better one (the best) first.
    const ranked = page.locator('section[aria-labelledby=accepted] tbody tr');
    expect(await ranked.count()).toBe(2);
    await expect(ranked.first().locator('td').nth(1).textContent()).resolves.toBe(sixDigits(task.best));
    await page.screenshot({ path: join(ARTIFACTS, 'competition.png'), fullPage: true });
    if (e2eConfig.docsScreenshot) await page.screenshot({ path: join(ROOT, 'docs', 'web-competition.png') });
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('shows the validator backlog and the demo verifications', async () => {
    const { page, errors } = await open('#/validators');
    await expect(page.locator('#backlog ~ dl').textContent()).resolves.toMatch(/Pending jobs\d+Leased jobs\d+Oldest pending.+Expired leases\d+/);
    expect(await page.locator('section[aria-labelledby=verifications] tbody tr').count()).toBeGreaterThanOrEqual(2);
    await page.screenshot({ path: join(ARTIFACTS, 'validators.png'), fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('shows the demo miner in the reward snapshot, with generated_at and the policy', async () => {
    const snapshot = (await (await fetch(`${stack.coordinator}/api/v1/reward-snapshot`)).json()) as { generated_at: string };
    const { page, errors } = await open('#/rewards');
    await expect(page.locator('main').textContent()).resolves.toContain(snapshot.generated_at);
    await expect(page.locator(`tr.reward-miner code[title="${stack.bestMiner}"]`).count()).resolves.toBeGreaterThanOrEqual(1);
    await expect(page.locator('#policy ~ dl').textContent()).resolves.toContain('Validator weights');
    await page.screenshot({ path: join(ARTIFACTS, 'rewards.png'), fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('shows the pool leaderboard, SOTA and epochs, and verifies a real claim package in the browser', async () => {
    const leaderboard = (await (await fetch(`${stack.pool}/api/v1/miners/leaderboard`)).json()) as { hotkey: string }[];
    expect(leaderboard.length).toBeGreaterThan(0);
    const { page, errors } = await open('#/pool');
    // The leaderboard only grows: wait for each miner the API listed before the page loaded (count() does not wait).
    for (const entry of leaderboard) {
      const row = page.locator(`tr.pool-miner code[title="${entry.hotkey}"]`);
      await row.waitFor();
      await expect(row.count()).resolves.toBe(1);
    }
    expect(await page.locator('section[aria-labelledby=sota] tbody tr').count()).toBe(1);
    expect(await page.locator('tr.epoch').count()).toBeGreaterThanOrEqual(1);

    await page.getByLabel('Hotkey (SS58)').fill(stack.bestMiner);
    await page.getByRole('button', { name: 'Look up and verify' }).click();
    const verdict = page.getByTestId('claim-verdict');
    await verdict.waitFor();
    // The pool may close another epoch while the test runs: compare with the root of the epoch the page looked up.
    const lookedUp = await verdict.getAttribute('data-epoch');
    const epoch = (await (await fetch(`${stack.pool}/claims/epoch/${lookedUp}`)).json()) as { root: string };
    await expect(verdict.textContent()).resolves.toBe(`✓ verified against root ${epoch.root.toLowerCase()}`);

    await page.getByLabel('Hotkey (SS58)').fill('5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty');
    await page.getByRole('button', { name: 'Look up and verify' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/not in|hotkey/i);
    await page.screenshot({ path: join(ARTIFACTS, 'pool.png'), fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors.filter((e) => !e.includes('404'))).toEqual([]);
    await page.context().close();
  });

  it('shows each service ready, the chain and the full participation disclaimer', async () => {
    const disclaimer = (await (await fetch(`${stack.coordinator}/api/v1/disclaimer`)).json()) as { title: string; summary: string };
    const { page, errors } = await open('#/status');
    await expect(page.locator('#coordinator ~ p').textContent()).resolves.toContain('ready at');
    await expect(page.locator('#pool-status ~ ul').textContent()).resolves.toContain('healthy');
    await expect(page.locator('#onchain ~ ul').textContent()).resolves.toMatch(/chain reachable, latest block \d+/);
    await expect(page.locator('.disclaimer-full').textContent()).resolves.toContain(disclaimer.title);
    // must_display: every page carries the summary.
    await expect(page.getByRole('complementary', { name: 'Participation disclaimer' }).textContent()).resolves.toContain(disclaimer.summary);
    await page.screenshot({ path: join(ARTIFACTS, 'status.png'), fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('is served with the security headers of DECISIONS §14, and every page renders under that CSP without a violation', async () => {
    const response = await fetch(`${stack.web}/`);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'; style-src 'self'");
    expect(csp).toContain(`connect-src 'self' ${new URL(stack.coordinator).origin} ${new URL(stack.pool).origin};`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect([response.headers.get('x-content-type-options'), response.headers.get('referrer-policy')]).toEqual(['nosniff', 'no-referrer']);
    // One tab through every page, the competition page (chart and live stream) included.
    const task = await demoTask();
    const { page, errors } = await open('#/competitions');
    const pages: [string, string][] = [[`#/competitions/${task.id}`, task.title], ['#/validators', 'Validators'], ['#/rewards', 'Rewards'], ['#/pool', 'Pool'], ['#/status', 'Status']];
    for (const [hash, heading] of pages) {
      await page.evaluate((next) => (location.hash = next), hash);
      await page.locator('main h1', { hasText: heading }).waitFor();
      await page.waitForFunction(() => !document.querySelector('main [role=status]')?.textContent?.startsWith('Loading'));
      if (hash.startsWith('#/competitions/')) await page.locator('.chart canvas').first().waitFor();
    }
    expect(errors.filter((e) => e.includes('CSP') || e.includes('Content Security Policy'))).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('shows a malformed address for a hash whose percent-encoding is broken, opened or navigated to', async () => {
    const opened = await open('#/competitions/%E0%A4%A');
    await expect(opened.page.locator('main h1').textContent()).resolves.toBe('Malformed address');
    await expect(opened.page.locator('main').textContent()).resolves.toContain('#/competitions/%E0%A4%A');
    await expect(opened.page.title()).resolves.toBe('Malformed address · Research competitions');
    expect(opened.errors).toEqual([]);
    await opened.page.context().close();

    // From a page already shown: the old page must not stay up.
    const { page, errors } = await open('#/validators');
    await page.evaluate(() => (location.hash = '#/competitions/%E0%A4%A'));
    await page.locator('main h1', { hasText: 'Malformed address' }).waitFor();
    await expect(page.locator('main').textContent()).resolves.not.toContain('Pending jobs');
    await page.getByRole('link', { name: 'See the competitions' }).click();
    await page.locator('main h1', { hasText: 'Competitions' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('shows a decision made while the competition page is open, without a reload', async () => {
    const admin = { 'x-admin-token': stack.adminToken, 'content-type': 'application/json' };
    const created = await fetch(`${stack.coordinator}/api/v1/tasks`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({
        slug: `web-live-${Date.now()}`,
        title: 'Peer-judged score',
        repository: 'https://example.org/model.git',
        base_ref: 'main',
        benchmark_command: 'python3 bench.py',
        allowed_patch_paths: ['model.py'],
        metric_name: 'score',
        metric_direction: 'maximize',
        competition_mode: 'peer_evaluation',
        min_peer_evaluations: 2,
        time_budget_seconds: 60,
      }),
    });
    expect(created.status).toBe(201);
    const task = (await created.json()) as { id: string };
    const { page, errors } = await open(`#/competitions/${task.id}`);
    await page.getByText('live updates on').waitFor();
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    await expect(page.locator('section[aria-labelledby=decisions]').textContent()).resolves.toContain('No decision');

    const [miner, first, second] = await Promise.all(['//web-e2e/miner', '//web-e2e/peer1', '//web-e2e/peer2'].map(async (uri) => new BtAuthSigner(await keypairFromUri(uri))));
    const signed = async (signer: BtAuthSigner, url: string, body: unknown) => {
      const text = JSON.stringify(body);
      const response = await fetch(`${stack.coordinator}${url}`, { method: 'POST', headers: { ...signer.signRequest({ method: 'POST', url, body: text }), 'content-type': 'application/json' }, body: text });
      return { status: response.status, body: (await response.json()) as { id: string } };
    };
    const claim = await signed(miner, `/api/v1/tasks/${task.id}/claim`, { claim_description: 'raise the score' });
    expect(claim.status).toBe(201);
    const patch = 'diff --git a/model.py b/model.py\n--- a/model.py\n+++ b/model.py\n@@ -1 +1 @@\n-A = 1\n+A = 2\n';
    const submission = await signed(miner, '/api/v1/submissions', { claim_id: claim.body.id, base_ref: 'main', patch, summary: 'a better constant', claimed_metrics: { score: 0.9 } });
    expect(submission.status).toBe(201);
    for (const peer of [first, second]) {
      const evaluation = await signed(peer, `/api/v1/submissions/${submission.body.id}/peer-evaluate`, { status: 'accepted', observed_metrics: { score: 0.8 } });
      expect(evaluation.status).toBe(200);
    }

    const decision = page.locator(`li[data-submission-id="${submission.body.id}"]`);
    await decision.waitFor({ timeout: 30_000 });
    await expect(decision.textContent()).resolves.toMatch(/^accepted score 0\.8 from/);
    await expect(page.locator('section[aria-labelledby=consensus] tbody').textContent()).resolves.toContain('2 / 0 / 0 (2)');
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
