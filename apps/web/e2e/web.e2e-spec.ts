import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type Page } from 'playwright-core';
import { BtAuthSigner, keypairFromUri } from '@rcs/auth';
import type { LeaderboardEntryDto, MinerResultsDto } from '@rcs/contracts';
import { accountIdToSs58, ss58ToAccountId } from '@rcs/merkle';
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
async function open(hash: string, viewport = { width: 1280, height: 900 }): Promise<Opened> {
  // A context of its own: axe needs one, and no page shares another's cache.
  const context = await browser.newContext({ viewport });
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

/** The one-line patch every test submission sends. */
const MODEL_PATCH = 'diff --git a/model.py b/model.py\n--- a/model.py\n+++ b/model.py\n@@ -1 +1 @@\n-A = 1\n+A = 2\n';

/** Creates a task as the operator: a benchmark over `model.py` scored by `score` (maximize), then `fields`. */
async function createTask(fields: Record<string, unknown>): Promise<{ id: string }> {
  const created = await fetch(`${stack.coordinator}/api/v1/tasks`, {
    method: 'POST',
    headers: { 'x-admin-token': stack.adminToken, 'content-type': 'application/json' },
    body: JSON.stringify({
      base_ref: 'main',
      benchmark_command: 'python3 bench.py',
      allowed_patch_paths: ['model.py'],
      metric_name: 'score',
      metric_direction: 'maximize',
      time_budget_seconds: 60,
      ...fields,
    }),
  });
  expect(created.status).toBe(201);
  return (await created.json()) as { id: string };
}

/** A POST to the coordinator signed by `signer`: its status and JSON body. */
async function signedPost(signer: BtAuthSigner, url: string, body: unknown): Promise<{ status: number; body: { id: string } }> {
  const text = JSON.stringify(body);
  const response = await fetch(`${stack.coordinator}${url}`, { method: 'POST', headers: { ...signer.signRequest({ method: 'POST', url, body: text }), 'content-type': 'application/json' }, body: text });
  return { status: response.status, body: (await response.json()) as { id: string } };
}

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
    await expect(page.getByRole('link', { name: 'onboard.md', exact: true }).getAttribute('href')).resolves.toBe(`${stack.coordinator}/api/v1/tasks/${task.id}/onboard.md`);
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

  it("ranks the demo's ternary task by its own rule: the smaller model inside the band first, compressed_bytes beside heldout_ppl, the replacement explained", async () => {
    const dashboard = (await (await fetch(`${stack.coordinator}/api/v1/dashboard`)).json()) as { tasks: { id: string; slug: string; best: unknown }[] };
    const task = dashboard.tasks.find((t) => t.slug.startsWith('ternary-') && t.best !== null);
    if (!task) throw new TypeError(`the demo left no ternary competition with a best (python3 with NumPy is needed):\n${stack.demoOutput.slice(-2000)}`);
    const best = (await (await fetch(`${stack.coordinator}/api/v1/tasks/${task.id}/best`)).json()) as { submission_id: string };
    const { page, errors } = await open(`#/competitions/${task.id}`);
    await expect(page.getByTestId('task-rule').textContent()).resolves.toBe('heldout_ppl (minimize); within 0.02 nats the smaller compressed_bytes wins');
    await expect(page.locator('#best ~ p .best-value').textContent()).resolves.toMatch(/^heldout_ppl [\d.]+, compressed_bytes \d+$/);
    // Before, the table ranked by heldout_ppl alone: the model the best replaced came first.
    await expect(page.locator('section[aria-labelledby=accepted] h2').textContent()).resolves.toContain("ranked by the task's rule");
    await expect(page.locator('section[aria-labelledby=accepted] thead').textContent()).resolves.toContain('Verified compressed_bytes');
    await expect(page.locator('tr.accepted-result').first().getAttribute('data-submission-id')).resolves.toBe(best.submission_id);
    await expect(page.locator('tr.history-point .band-replacement').first().textContent()).resolves.toMatch(/^within the 0\.02 nats band of the best it replaced \(heldout_ppl [\d.]+\), with compressed_bytes \d+ instead of \d+$/);
    await expect(page.getByTestId('band-note').isVisible()).resolves.toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'competition-ternary.png'), fullPage: true });
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
    // The runner and the weight setter beside them, and no "not configured" next to a configured contract.
    await expect(page.locator('#runner-status ~ p').textContent()).resolves.toMatch(/^up at http/);
    await expect(page.locator('#weights-status ~ ul').textContent()).resolves.toContain(`at ${stack.weightSetter}`);
    await expect(page.locator('main').textContent()).resolves.not.toContain('not configured');
    // The banner says the title once.
    const banner = (await page.getByRole('complementary', { name: 'Participation disclaimer' }).textContent()) ?? '';
    expect(banner.split(disclaimer.title).length - 1).toBe(1);
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
    expect(csp).toContain(`connect-src 'self' ${new URL(stack.coordinator).origin} ${new URL(stack.pool).origin} `);
    // The weight setter config.json names is connected to as well.
    expect(csp).toContain(` ${new URL(stack.weightSetter ?? 'http://missing').origin}`);
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
    const task = await createTask({
      slug: `web-live-${Date.now()}`,
      title: 'Peer-judged score',
      repository: 'https://example.org/model.git',
      competition_mode: 'peer_evaluation',
      min_peer_evaluations: 2,
    });
    const { page, errors } = await open(`#/competitions/${task.id}`);
    await page.getByText('live updates on').waitFor();
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    await expect(page.locator('section[aria-labelledby=decisions]').textContent()).resolves.toContain('No decision');

    const [miner, first, second] = await Promise.all(['//web-e2e/miner', '//web-e2e/peer1', '//web-e2e/peer2'].map(async (uri) => new BtAuthSigner(await keypairFromUri(uri))));
    const claim = await signedPost(miner, `/api/v1/tasks/${task.id}/claim`, { claim_description: 'raise the score' });
    expect(claim.status).toBe(201);
    const submission = await signedPost(miner, '/api/v1/submissions', { claim_id: claim.body.id, base_ref: 'main', patch: MODEL_PATCH, summary: 'a better constant', claimed_metrics: { score: 0.9 } });
    expect(submission.status).toBe(201);
    for (const peer of [first, second]) {
      const evaluation = await signedPost(peer, `/api/v1/submissions/${submission.body.id}/peer-evaluate`, { status: 'accepted', observed_metrics: { score: 0.8 } });
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
  it('shows a miner page for any spelling of a hotkey: shares, results, weight, reputation and payout in α with rao on hover', async () => {
    const polkadotSpelling = accountIdToSs58(ss58ToAccountId(stack.bestMiner), 0);
    expect(polkadotSpelling).not.toBe(stack.bestMiner);
    const { page, errors } = await open(`#/miners/${polkadotSpelling}`);
    await expect(page.locator('main h1').textContent()).resolves.toBe('Miner');
    await expect(page.locator('code.full-hotkey').textContent()).resolves.toBe(stack.bestMiner);
    await expect(page.getByTestId('overall-share').textContent()).resolves.toMatch(/^\d+(\.\d+)? %$/);
    expect(await page.locator('tr.miner-share').count()).toBeGreaterThanOrEqual(1);
    // Its accepted results per competition, as the coordinator's public route lists them: the demo competition's best is its.
    const demo = await demoTask();
    const results = (await (await fetch(`${stack.coordinator}/api/v1/miners/${polkadotSpelling}/results`)).json()) as MinerResultsDto;
    expect(results.hotkey).toBe(stack.bestMiner);
    expect(await page.locator('tr.miner-result').count()).toBe(results.competitions.length);
    const demoRow = page.locator('tr.miner-result', { has: page.locator(`a[href="#/competitions/${demo.id}"]`) });
    await expect(demoRow.locator('.best-value').textContent()).resolves.toBe(`mse ${sixDigits(demo.best)}`);
    await expect(demoRow.textContent()).resolves.toContain('holds the best');
    await expect(demoRow.getByTestId('accepted-count').textContent()).resolves.toBe(String(results.competitions.find((c) => c.task_id === demo.id)?.accepted));
    // The demo's ternary task: its first model had the lower heldout_ppl, its smaller one inside the band took the
    // best. The row that says "holds the best" names that best (before, the first model's submission).
    const ternary = results.competitions.find((c) => c.task_slug.startsWith('ternary-') && c.holds_best);
    if (!ternary) throw new TypeError(`the demo's miner holds no ternary best: ${JSON.stringify(results.competitions.map((c) => c.task_slug))}`);
    const ternaryBest = (await (await fetch(`${stack.coordinator}/api/v1/tasks/${ternary.task_id}/best`)).json()) as { submission_id: string };
    const ternaryRow = page.locator('tr.miner-result', { has: page.locator(`a[href="#/competitions/${ternary.task_id}"]`) });
    await expect(ternaryRow.textContent()).resolves.toContain('holds the best');
    await expect(ternaryRow.locator(`code`).textContent()).resolves.toBe(ternaryBest.submission_id);
    await page.getByTestId('weight').waitFor();
    // Its pool standing, read by hotkey wherever it ranks.
    const standing = (await (await fetch(`${stack.pool}/api/v1/miners/${polkadotSpelling}/standing`)).json()) as LeaderboardEntryDto;
    await expect(page.getByTestId('reputation').textContent()).resolves.toContain(`rank ${standing.rank} in the pool`);
    // The demo's miner has a recipient: a leaf with its cumulative amount, in α, the exact rao on hover.
    const payout = page.locator('[data-payout]');
    await payout.waitFor();
    await expect(payout.getAttribute('data-payout')).resolves.toBe('leaf');
    const cumulative = page.getByTestId('cumulative').locator('.alpha');
    const rao = (await cumulative.getAttribute('data-rao')) ?? '';
    expect(rao).toMatch(/^\d+$/);
    // Under 2^53 rao (the demo's amounts), a float division writes the same digits.
    await expect(cumulative.textContent()).resolves.toBe(`${(Number(rao) / 1e9).toLocaleString('en-US', { maximumFractionDigits: 9 })} α`);
    await expect(cumulative.getAttribute('title')).resolves.toBe(`${rao.replace(/\B(?=(\d{3})+(?!\d))/g, ',')} rao`);
    await expect(page.getByTestId('claimable').textContent()).resolves.toMatch(/α/);
    await page.screenshot({ path: join(ARTIFACTS, 'miner.png'), fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    // Every hotkey links to its page: the competitions list's best miner leads here.
    const list = await open('#/competitions');
    await list.page.locator(`a.miner-link:has(code[title="${stack.bestMiner}"])`).first().click();
    await list.page.locator('code.full-hotkey', { hasText: stack.bestMiner }).waitFor();
    await list.page.context().close();
    await page.context().close();
  });

  it('shares per competition and overall, and the weights the validator set, on the Rewards page', async () => {
    const { page, errors } = await open('#/rewards');
    const overall = page.locator('tr.overall-miner');
    expect(await overall.count()).toBeGreaterThanOrEqual(1);
    const percents = await page.locator('tr.overall-miner .share').allTextContents();
    const sum = percents.reduce((total, text) => total + Number(text.replace(' %', '').replace('< 0.01', '0')), 0);
    expect(Math.abs(sum - 100)).toBeLessThan(0.05 * percents.length + 0.01);
    await page.locator('#weights ~ p, #weights ~ div, #weights ~ .scroll').first().waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'rewards-shares.png'), fullPage: true });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('checks the SS58 in the claim lookup before asking, and tells an unknown hotkey apart; the package JSON can be copied', async () => {
    const { page, errors } = await open('#/pool');
    const asked: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/claim/') || request.url().includes('recipient-coldkey')) asked.push(request.url());
    });
    await page.getByLabel('Hotkey (SS58)').fill(`${stack.bestMiner.slice(0, -1)}x`);
    await page.getByRole('button', { name: 'Look up and verify' }).click();
    await expect(page.getByTestId('claim-error').textContent()).resolves.toContain('not a valid SS58 address');
    expect(asked).toEqual([]);
    // A valid key the pool has never seen.
    await page.getByLabel('Hotkey (SS58)').fill(accountIdToSs58(new Uint8Array(32).fill(7)));
    await page.getByRole('button', { name: 'Look up and verify' }).click();
    await page.locator('[data-payout="unknown_hotkey"]').waitFor();
    await page.getByLabel('Hotkey (SS58)').fill(stack.bestMiner);
    await page.getByRole('button', { name: 'Look up and verify' }).click();
    await page.getByTestId('claim-verdict').waitFor();
    await expect(page.getByTestId('claimed').textContent()).resolves.toMatch(/α/);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('button', { name: 'Copy the package JSON' }).click();
    await page.getByTestId('copy-state').filter({ hasText: /./ }).waitFor();
    await expect(page.getByTestId('copy-state').textContent()).resolves.toBe('copied');
    const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText())) as { hotkey: string; proof: string[] };
    expect(copied.hotkey).toBe(stack.bestMiner);
    await page.screenshot({ path: join(ARTIFACTS, 'claim-lookup.png'), fullPage: true });
    expect(errors.filter((e) => !e.includes('404'))).toEqual([]);
    await page.context().close();
  });

  it('renders the onboarding document and runs nothing of a hostile one', async () => {
    const hostile = [
      '# Hostile notes',
      '<script>window.pwned = "script"</script>',
      '<img src="x" onerror="window.pwned = \'img\'">',
      '[click me](javascript:window.pwned=\'link\')',
      '**bold** and `code` and [a real link](https://example.org/docs)',
      '```',
      '<script>window.pwned = "code"</script>',
      '```',
    ].join('\n\n');
    const task = await createTask({
      slug: `web-hostile-${Date.now()}`,
      title: 'Hostile onboarding',
      repository: 'https://example.org/model.git',
      onboard_md: hostile,
    });
    const { page, errors } = await open(`#/competitions/${task.id}`);
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const doc = page.getByTestId('onboarding-doc');
    await doc.waitFor();
    await expect(doc.locator('h2, h3, h4').first().textContent()).resolves.toBeTruthy();
    // The document's HTML is shown as text, never made into elements.
    await expect(doc.textContent()).resolves.toContain('<script>window.pwned = "script"</script>');
    await expect(doc.textContent()).resolves.toContain('<img src="x" onerror=');
    expect(await doc.locator('script, img, iframe, object, embed, [onerror], [onclick]').count()).toBe(0);
    expect(await doc.locator('a[href^="javascript:" i]').count()).toBe(0);
    await expect(doc.locator('.unsafe-link', { hasText: 'click me' }).count()).resolves.toBe(1);
    await expect(doc.locator('a[href="https://example.org/docs"]').count()).resolves.toBe(1);
    await expect(doc.locator('strong', { hasText: 'bold' }).count()).resolves.toBeGreaterThanOrEqual(1);
    await doc.locator('.unsafe-link', { hasText: 'click me' }).click();
    expect(await page.evaluate(() => (window as unknown as { pwned?: string }).pwned ?? null)).toBeNull();
    expect(dialogs).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, 'onboarding-hostile.png'), fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('shows why a submission failed on the validators page and the competition page', async () => {
    const task = await createTask({
      slug: `web-failing-${Date.now()}`,
      title: 'Unclonable repository',
      repository: 'https://127.0.0.1:9/nonexistent.git',
      // Standard: the runner replays it (a task without a mode is centerless, whose submissions need a proposed idea).
      competition_mode: 'standard',
    });
    const miner = new BtAuthSigner(await keypairFromUri('//web-e2e/failing'));
    // A refusal shows its body (claim descriptions take 8 characters at least).
    const answered = (reply: { status: number; body: unknown }) => [reply.status, reply.status < 300 ? '' : JSON.stringify(reply.body)];
    const claim = await signedPost(miner, `/api/v1/tasks/${task.id}/claim`, { claim_description: 'clone a repository that is not there' });
    expect(answered(claim)).toEqual([201, '']);
    const submission = await signedPost(miner, '/api/v1/submissions', { claim_id: claim.body.id, base_ref: 'main', patch: MODEL_PATCH, summary: 'x', claimed_metrics: { score: 1 } });
    expect(answered(submission)).toEqual([201, '']);
    // The competition page reads again on the decision event; the runner's verdict arrives with its notes.
    const { page, errors } = await open(`#/competitions/${task.id}`);
    const decision = page.locator(`li[data-submission-id="${submission.body.id}"] .reason`);
    await decision.waitFor({ timeout: 120_000 });
    const verification = ((await (await fetch(`${stack.coordinator}/api/v1/verifications?submission_id=${submission.body.id}`)).json()) as { notes: string | null; status: string }[])[0];
    // The stack's validator runner decided it: its clone failed.
    expect(verification.status).toBe('error');
    expect(verification.notes).toMatch(/^Could not clone the repository: /);
    await expect(decision.textContent()).resolves.toBe(verification.notes);
    await page.screenshot({ path: join(ARTIFACTS, 'competition-reason.png'), fullPage: true });
    const validators = await open('#/validators');
    await expect(validators.page.locator('section[aria-labelledby=verifications] .reason').first().textContent()).resolves.toBe(verification.notes);
    await validators.page.screenshot({ path: join(ARTIFACTS, 'validators-reason.png'), fullPage: true });
    expect(errors).toEqual([]);
    expect(validators.errors).toEqual([]);
    await validators.page.context().close();
    await page.context().close();
  });

  it("shows the pool standing of a miner past the leaderboard's first page, and no accepted result for one without any", async () => {
    // 101 more pool miners, registered as miners do: the pool then has more than the 100 the Pool page lists.
    const registered = await Promise.all(Array.from({ length: 101 }, (_, i) => keypairFromUri(`//web-e2e/pool/${i}`).then((pair) => new BtAuthSigner(pair))));
    for (const miner of registered) {
      const reply = await fetch(`${stack.pool}/api/v1/miners/register`, { method: 'POST', headers: { ...miner.signPool() } });
      expect(reply.status).toBe(200);
    }
    const board = (await (await fetch(`${stack.pool}/api/v1/miners/leaderboard?limit=1000`)).json()) as LeaderboardEntryDto[];
    const last = board[board.length - 1];
    expect(last.rank).toBeGreaterThan(100);
    const { page, errors } = await open(`#/miners/${last.hotkey}`);
    const reputation = page.getByTestId('reputation');
    await reputation.waitFor();
    await expect(reputation.textContent()).resolves.toContain(`rank ${last.rank} in the pool`);
    await expect(page.locator('section[aria-labelledby=miner-results]').textContent()).resolves.toContain('No accepted result yet.');
    await page.screenshot({ path: join(ARTIFACTS, 'miner-past-first-page.png'), fullPage: true });
    // A hotkey without an epoch leaf is a 404 of the claim routes; any other failed read is an error.
    expect(errors.filter((e) => !e.includes('404'))).toEqual([]);
    await page.context().close();
  });

  it('never scrolls sideways at 390 px: wide tables scroll in their own box, on every page', async () => {
    const task = await demoTask();
    const pages: [string, string][] = [
      ['#/competitions', 'competitions'],
      [`#/competitions/${task.id}`, 'competition'],
      ['#/validators', 'validators'],
      ['#/rewards', 'rewards'],
      ['#/pool', 'pool'],
      ['#/status', 'status'],
      [`#/miners/${stack.bestMiner}`, 'miner'],
      ['#/nope', 'not-found'],
    ];
    for (const [hash, name] of pages) {
      const { page, errors } = await open(hash, { width: 390, height: 844 });
      if (name === 'competition') await page.locator('.chart canvas').first().waitFor();
      if (name === 'miner') await page.locator('[data-payout]').waitFor();
      const overflow = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
      expect({ name, ...overflow, fits: overflow.scroll <= overflow.client }).toEqual({ name, ...overflow, fits: true });
      await page.screenshot({ path: join(ARTIFACTS, `mobile-${name}.png`), fullPage: true });
      expect(errors.filter((e) => !e.includes('404'))).toEqual([]);
      await page.context().close();
    }
  });
});
