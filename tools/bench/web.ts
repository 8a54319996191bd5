/**
 * `npm run bench -- web`: the competitions page of a coordinator holding 50 tasks and 200,000
 * submissions (the snapshot benchmark's data set), loaded in Debian's chromium. Prints the time until
 * the page has rendered every competition, next to the time of its one data read (GET /api/v1/dashboard,
 * from the browser's resource timing) as this machine's reference, and the gzipped size of the
 * JavaScript the page loads. Targets: 1 s and 150 KB. A few minutes (seeding included).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Client } from 'pg';
import { chromium } from 'playwright-core';
import { childProcessBaseEnv, createScratchDatabase, freePort } from '@rcs/testing';
import { ensureWebBuild, serveWeb } from '../stack/web';
import { runBenchmark } from './support/run-benchmark';
import { median } from './support/stats';

const REPO_ROOT = join(__dirname, '..', '..');
const SEED = join(REPO_ROOT, 'apps', 'coordinator-api', 'bench', 'snapshot.bench.ts');
const TASKS = 50;
const LOADS = 5;
const TARGET_MS = 1000;
const TARGET_GZIP_KB = 150;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new TypeError(`${what} within ${timeoutMs / 1000} s`);
}

/**
 * The database at rest, as autovacuum leaves it: without a visibility map (test Postgres servers run with
 * autovacuum off) the dashboard's index-only status counts visit all 200,000 rows in the heap (~1.3 s instead of ~50 ms).
 */
async function vacuum(url: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('VACUUM (ANALYZE)');
  } finally {
    await client.end();
  }
}

async function main(): Promise<number> {
  const buildProblem = ensureWebBuild();
  if (buildProblem) throw new TypeError(buildProblem);
  const db = await createScratchDatabase('bench_web');
  let coordinator: ChildProcess | null = null;
  let web: Awaited<ReturnType<typeof serveWeb>> | null = null;
  try {
    const seeded = spawnSync(process.execPath, ['-r', '@swc-node/register', SEED, db.url, '--seed-only'], { cwd: REPO_ROOT, stdio: 'inherit', timeout: 5 * 60_000 });
    if (seeded.status !== 0) throw new TypeError(`seeding failed (${seeded.status ?? seeded.signal})`);
    await vacuum(db.url);

    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    coordinator = spawn(process.execPath, ['-r', '@swc-node/register', join('apps', 'coordinator-api', 'src', 'main.ts')], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...childProcessBaseEnv(),
        HOST: '127.0.0.1',
        COORDINATOR_PORT: String(port),
        COORDINATOR_DATABASE_URL: db.url,
        REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
        REDIS_KEY_PREFIX: `bench-web-${port}`,
        CHAIN: 'dev',
        NETUID: '1',
        STAKE_CHECK: 'off',
        LOG_LEVEL: 'error',
      },
    });
    await waitFor('the coordinator did not start', async () => (await fetch(`${url}/healthz`)).ok, 180_000);
    // Its first reward snapshot build is heavy at this size: measure once it is served, on a quiet coordinator.
    await waitFor('the first reward snapshot was not built', async () => (await fetch(`${url}/api/v1/reward-snapshot`)).ok, 300_000);

    web = await serveWeb('127.0.0.1', await freePort(), { coordinator: url, pool: url });
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
    const rendered: number[] = [];
    const dashboard: number[] = [];
    const dashboardStart: number[] = [];
    const dashboardEnd: number[] = [];
    const scriptEnd: number[] = [];
    let scriptBytes = 0;
    let scriptGzip = 0;
    try {
      for (let load = 0; load < LOADS; load++) {
        // A fresh context each time: nothing cached, as for a first visit.
        const context = await browser.newContext();
        const page = await context.newPage();
        const scripts: Buffer[] = [];
        page.on('response', (response) => {
          if (response.request().resourceType() === 'script') void response.body().then((body) => scripts.push(body));
        });
        await page.goto(`${web.url}/#/competitions`);
        // A function, not a string: the page's CSP (no 'unsafe-eval') refuses a predicate playwright would eval. Typed
        // without the DOM library, which this tool is compiled without.
        await page.waitForFunction(
          (tasks: number) => (globalThis as unknown as { document: { querySelectorAll(selector: string): { length: number } } }).document.querySelectorAll('tr[data-task-id]').length === tasks,
          TASKS,
          { polling: 'raf', timeout: 30_000 },
        );
        const timing = (await page.evaluate(
          `(() => { const all = performance.getEntriesByType('resource'); const d = all.find((e) => e.name.endsWith('/api/v1/dashboard')); const js = all.filter((e) => e.initiatorType === 'script'); return { rendered: performance.now(), dashboard: d ? d.duration : NaN, dashboardStart: d ? d.startTime : NaN, dashboardEnd: d ? d.responseEnd : NaN, scriptEnd: js.length ? Math.max(...js.map((e) => e.responseEnd)) : NaN }; })()`,
        )) as { rendered: number; dashboard: number; dashboardStart: number; dashboardEnd: number; scriptEnd: number };
        rendered.push(timing.rendered);
        dashboard.push(timing.dashboard);
        dashboardStart.push(timing.dashboardStart);
        dashboardEnd.push(timing.dashboardEnd);
        scriptEnd.push(timing.scriptEnd);
        scriptBytes = scripts.reduce((sum, body) => sum + body.length, 0);
        scriptGzip = scripts.reduce((sum, body) => sum + gzipSync(body).length, 0);
        await context.close();
      }
    } finally {
      await browser.close();
    }
    const renderMs = median(rendered);
    const dashboardMs = median(dashboard);
    process.stdout.write(`competitions page, ${TASKS} tasks and 200,000 submissions, ${LOADS} cold loads in chromium\n`);
    process.stdout.write(`  rendered: median ${renderMs.toFixed(0)} ms (loads: ${rendered.map((ms) => ms.toFixed(0)).join(', ')}), target ${TARGET_MS} ms\n`);
    process.stdout.write(`  reference: GET /api/v1/dashboard in the page: median ${dashboardMs.toFixed(0)} ms; rendered / dashboard read = ${(renderMs / dashboardMs).toFixed(2)}\n`);
    process.stdout.write(`  of which: page start to dashboard request ${median(dashboardStart).toFixed(0)} ms (HTML, JS, config.json); this machine's load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores\n`);
    process.stdout.write(`  dashboard answered at ${median(dashboardEnd).toFixed(0)} ms, the app's JavaScript loaded at ${median(scriptEnd).toFixed(0)} ms (page start = 0)\n`);
    process.stdout.write(`  JavaScript loaded: ${(scriptBytes / 1024).toFixed(1)} KB, ${(scriptGzip / 1024).toFixed(1)} KB gzipped, target ${TARGET_GZIP_KB} KB\n`);
    return 0;
  } finally {
    await web?.close();
    if (coordinator && coordinator.exitCode === null) {
      const exited = new Promise((resolve) => coordinator?.once('exit', resolve));
      coordinator.kill('SIGTERM');
      await exited;
    }
    await db.drop();
  }
}

runBenchmark(main);
