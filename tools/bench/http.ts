/**
 * `npm run bench -- http`: the coordinator's hot paths against a bare reference of our own
 * (support/bare-coordinator.ts: Fastify + `pg`, the minimal correct query per route; for writes the
 * signature check and the one durable statement), both on one scratch database seeded with a task
 * holding 100,000 active claims and 200,000 decided submissions (issue 16), and one miner with 100,000 accepted
 * submissions over 21 tasks whose results page is read (issue 35). Every measurement runs
 * on both servers back to back, alternating which goes first, for BENCH_HTTP_ROUNDS rounds; the table
 * gives min/median/max of each and of the per-round ratio. The coordinator runs at its default log
 * level (info), its log lines drained through a pipe as a log collector would.
 *
 * All traffic goes to 127.0.0.1; every run is bounded by a duration (reads) or a request count
 * (writes), and the whole benchmark by BENCH_HTTP_TIME_LIMIT_SECONDS. Environment (all optional):
 * BENCH_HTTP_SECONDS (per read run, 5), BENCH_HTTP_ROUNDS (3), BENCH_HTTP_WRITES (requests per write
 * run, 1500), BENCH_HTTP_CONNECTIONS (50), BENCH_HTTP_ONLY (some of reads, signed, writes),
 * BENCH_HTTP_CPU_PROF (a folder: the coordinator writes a V8 CPU profile there when it stops),
 * BENCH_HTTP_BARE_PREPARED (true: the bare server's write statements are named prepared statements,
 * as the coordinator's are; default false, the plain minimal statement). Each write run also reports
 * the CPU milliseconds per answered request of the server, Postgres, Redis and autocannon.
 * About five minutes with the defaults on an idle 2-core machine.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Keyring } from '@polkadot/keyring';
import autocannon from 'autocannon';
import { Client } from 'pg';
import { BtAuthSigner, cryptoReady } from '@rcs/auth';
import { EnvReader } from '@rcs/config';
import { childProcessBaseEnv, createScratchDatabase, createTestRedis, devCoordinatorEnv, freePort, waitForHttp } from '@rcs/testing';
import { HEAVY_MINER_RESULTS_PATH, seedHeavyMiner } from './support/heavy-miner';
import { cpuSeconds, cpuSpent, type CpuGroups } from './support/process-cpu';
import { runBenchmark } from './support/run-benchmark';
import { median } from './support/stats';

const REPO_ROOT = join(__dirname, '..', '..');
const env = new EnvReader(process.env);
const SECONDS = env.int('BENCH_HTTP_SECONDS', 5, 1, 120);
const ROUNDS = env.int('BENCH_HTTP_ROUNDS', 3, 1, 20);
const WRITES = env.int('BENCH_HTTP_WRITES', 1500, 100, 50_000);
const CONNECTIONS = env.int('BENCH_HTTP_CONNECTIONS', 50, 1, 1000);
const TIME_LIMIT_SECONDS = env.int('BENCH_HTTP_TIME_LIMIT_SECONDS', 900, 60, 7200);
const CPU_PROF = env.optional('BENCH_HTTP_CPU_PROF');
const BARE_PREPARED = env.bool('BENCH_HTTP_BARE_PREPARED', false);
const GROUPS = ['reads', 'signed', 'writes'] as const;
const ONLY = env.list('BENCH_HTTP_ONLY');
const unknownGroups = ONLY.filter((g) => !(GROUPS as readonly string[]).includes(g));
if (unknownGroups.length > 0) env.problems.push(`BENCH_HTTP_ONLY: unknown ${unknownGroups.join(', ')}; groups are ${GROUPS.join(', ')}`);
const runs = (group: (typeof GROUPS)[number]): boolean => ONLY.length === 0 || ONLY.includes(group);
if (env.problems.length > 0) {
  process.stderr.write(`${env.problems.join('\n')}\n`);
  process.exit(2);
}

const STORED_CLAIMS = 100_000;
const STORED_SUBMISSIONS = 200_000;
const OTHER_TASKS = 20;
const BIG_TASK = md5uuid('task-big');
/** A task without claims for each claim run of each server and round. */
const emptyTask = (server: string, round: number): string => md5uuid(`task-empty-${server}-${round}`);
const PATCH = 'diff --git a/src/a.py b/src/a.py\n--- a/src/a.py\n+++ b/src/a.py\n@@ -1 +1 @@\n-a = 1\n+a = 2\n';

function md5uuid(text: string): string {
  const h = createHash('md5').update(text).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

interface Server {
  name: 'coordinator' | 'bare';
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Spawns a node entry with stdout drained (counted, not kept) and waits for its health route. */
async function start(name: Server['name'], args: string[], envVars: NodeJS.ProcessEnv, port: number, nodeFlags: string[] = []): Promise<Server> {
  const child = spawn(process.execPath, [...nodeFlags, '-r', '@swc-node/register', ...args], {
    cwd: REPO_ROOT,
    env: { ...childProcessBaseEnv(), ...envVars },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stdout?.on('data', () => undefined);
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-8000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${url}/healthz`, 180_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${name} did not start: ${(error as Error).message}\n${stderr}`);
  }
  return {
    name,
    url,
    child,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

const hashed = (expression: string): string => `(('x' || substr(md5((${expression})::text), 1, 8))::bit(32)::bigint & 2147483647) / 2147483648.0`;

async function seed(url: string): Promise<string> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const task = (id: string, slug: string): string =>
      `('${id}'::uuid, '${slug}', 'Bench ${slug}', 'https://git.test/bench.git', 'main', 'python bench.py', '["src/**"]', 262144, 'score',
        'maximize', 'scalar', 'standard', 2, 600, 'live')`;
    await client.query(
      `INSERT INTO tasks (id, slug, title, repository, base_ref, benchmark_command, allowed_patch_paths, max_patch_bytes, metric_name,
                          metric_direction, ranking_mode, competition_mode, min_peer_evaluations, time_budget_seconds, task_state)
       VALUES ${[task(BIG_TASK, 'bench-big'), ...['coordinator', 'bare'].flatMap((server) => Array.from({ length: ROUNDS }, (_, round) => task(emptyTask(server, round), `bench-empty-${server}-${round}`)))].join(', ')}`,
    );
    await client.query(
      `INSERT INTO tasks (id, slug, title, repository, base_ref, benchmark_command, allowed_patch_paths, max_patch_bytes, metric_name,
                          metric_direction, ranking_mode, competition_mode, min_peer_evaluations, time_budget_seconds, task_state, created_at)
       SELECT md5('other' || t)::uuid, 'bench-' || t, 'Bench task ' || t, 'https://git.test/bench.git', 'main', 'python bench.py',
              '["src/**"]', 262144, 'score', 'minimize', 'scalar', 'standard', 2, 600, 'live', now() - interval '1 day'
       FROM generate_series(1, ${OTHER_TASKS}) AS t`,
    );
    // 200,000 decided submissions (each with its submitted claim) and 100,000 active claims, all on the big task.
    await client.query(
      `INSERT INTO claims (id, task_id, miner_hotkey, claim_description, status, expires_at, created_at)
       SELECT md5('claim' || i)::uuid, $1, '5' || md5('miner' || (i % 5000)) || 'BenchMinerKey00', 'bench', 'submitted', now(), now() - interval '2 days'
       FROM generate_series(0, ${STORED_SUBMISSIONS - 1}) AS i`,
      [BIG_TASK],
    );
    await client.query(
      `INSERT INTO submissions (id, task_id, claim_id, miner_hotkey, base_ref, patch, summary, status, decided_at, verified_metric_value, created_at)
       SELECT md5('sub' || i)::uuid, $1, md5('claim' || i)::uuid, '5' || md5('miner' || (i % 5000)) || 'BenchMinerKey00', 'main',
              'diff --git a/src/a.py b/src/a.py', 'bench', CASE WHEN i % 4 = 0 THEN 'rejected' ELSE 'accepted' END,
              now() - (${hashed("'d' || i")} * interval '40 days'), round((${hashed("'m' || i")} * 100)::numeric, 3)::float8, now() - interval '41 days'
       FROM generate_series(0, ${STORED_SUBMISSIONS - 1}) AS i`,
      [BIG_TASK],
    );
    await client.query(
      `INSERT INTO claims (task_id, miner_hotkey, claim_description, status, expires_at)
       SELECT $1, '5' || md5('active' || i) || 'BenchActiveKey0', 'bench', 'active', now() + interval '2 hours'
       FROM generate_series(0, ${STORED_CLAIMS - 1}) AS i`,
      [BIG_TASK],
    );
    const otherTasks = (await client.query<{ id: string }>(`SELECT id FROM tasks WHERE slug LIKE 'bench-%' AND slug NOT LIKE 'bench-empty-%'`)).rows.map((row) => row.id);
    await seedHeavyMiner(client, otherTasks, hashed);
    await client.query(
      `INSERT INTO best_results (task_id, submission_id, metric_name, metric_direction, metric_value, miner_hotkey, updated_at)
       SELECT task_id, id, 'score', 'maximize', verified_metric_value, miner_hotkey, decided_at FROM submissions
       WHERE task_id = $1 AND status = 'accepted' ORDER BY verified_metric_value DESC, decided_at LIMIT 1`,
      [BIG_TASK],
    );
    // Statistics stay as they are: autovacuum may be off, and the hot paths must not depend on it.
    return md5uuid('sub7');
  } finally {
    await client.end();
  }
}

interface Measured {
  rps: number;
  p99: number;
  errors: number;
  /** CPU milliseconds per answered request, by process group, when the run was asked to count them. */
  cpuMs?: Record<string, number>;
}

/** Whose CPU a write run counts: the server under load, every Postgres and Redis process, and this process (autocannon). */
function cpuGroups(server: Server): CpuGroups {
  return { server: { pid: server.child.pid ?? -1 }, postgres: { command: 'postgres' }, redis: { command: 'redis-server' }, autocannon: { pid: process.pid } };
}

/** One autocannon run; `next` gives each request (method, path, headers, body), or a fixed GET path. */
async function load(
  url: string,
  options: { path: string; seconds?: number; amount?: number; next?: () => autocannon.Request; onBody?: (status: number, body: string) => void; cpu?: CpuGroups },
): Promise<Measured> {
  const cpuBefore = options.cpu === undefined ? undefined : cpuSeconds(options.cpu);
  const started = performance.now();
  let lastResponseAt = started;
  const result = await autocannon({
    url: `${url}${options.path}`,
    connections: CONNECTIONS,
    ...(options.amount !== undefined ? { amount: options.amount } : { duration: options.seconds ?? SECONDS }),
    timeout: 30,
    ...(options.next !== undefined && {
      requests: [
        {
          setupRequest: () => options.next?.() ?? { method: 'GET', path: '/healthz' },
          onResponse: (status: number, body: string) => {
            lastResponseAt = performance.now();
            options.onBody?.(status, body);
          },
        },
      ],
    }),
  });
  // A run of a fixed number of requests ends at autocannon's next 1 s sample tick, not at its last
  // answer, so its duration rounds up to whole seconds (1,500 writes in 4.0 to 9.0 s): such a run is
  // timed here, from the start to the last answer.
  const seconds = options.amount !== undefined ? (lastResponseAt - started) / 1000 : result.duration || 1;
  // Requests still queued in the server when the clock stopped finish before the next run starts.
  await fetch(`${url}/healthz`).then((r) => r.arrayBuffer());
  if (options.next === undefined) await fetch(`${url}${options.path}`).then((r) => r.arrayBuffer());
  const ok = result['2xx'];
  const refused = Object.entries(result.statusCodeStats ?? {}).filter(([code]) => !code.startsWith('2'));
  if (refused.length > 0 || result.errors > 0) {
    process.stdout.write(`  ${url}${options.path}: ${refused.map(([code, { count }]) => `${count} × ${code}`).join(', ')} ${result.errors} errors, ${result.timeouts} timeouts\n`);
  }
  const cpuMs =
    options.cpu === undefined || cpuBefore === undefined
      ? undefined
      : Object.fromEntries(Object.entries(cpuSpent(cpuBefore, cpuSeconds(options.cpu))).map(([name, s]) => [name, (s * 1000) / Math.max(ok, 1)]));
  return { rps: ok / seconds, p99: result.latency.p99, errors: result.non2xx + result.errors + result.timeouts, cpuMs };
}

function spread(values: number[], digits = 0): string {
  const sorted = [...values].sort((a, b) => a - b);
  const f = (v: number): string => v.toFixed(digits);
  return `${f(sorted[0])} / ${f(median(sorted))} / ${f(sorted[sorted.length - 1])}`;
}

interface Row {
  name: string;
  target: number;
  coordinator: Measured[];
  bare: Measured[];
}

/** Fresh sr25519 keys (from seeds: no derivation cost), made before any clock starts. */
function makeSigners(count: number, salt: string): BtAuthSigner[] {
  const keyring = new Keyring({ type: 'sr25519', ss58Format: 42 });
  return Array.from({ length: count }, (_, i) => new BtAuthSigner(keyring.addFromSeed(createHash('sha256').update(`${salt}:${i}`).digest())));
}

/** Pre-signed POSTs, one per signer, handed out in order (the signature store accepts each once). */
function signedPosts(signers: BtAuthSigner[], path: (signer: BtAuthSigner) => string, body: (signer: BtAuthSigner) => string): () => autocannon.Request {
  const requests = signers.map((signer) => {
    const text = body(signer);
    const url = path(signer);
    return { method: 'POST' as const, path: url, body: text, headers: { 'content-type': 'application/json', ...signer.signRequest({ method: 'POST', url, body: text }) } };
  });
  let i = 0;
  // Past the end (autocannon may ask once more per connection) a request that is refused cheaply and counted as an error.
  return () => requests[i++] ?? { method: 'GET', path: '/api/v1/none' };
}

async function main(): Promise<number> {
  const deadline = setTimeout(() => {
    process.stderr.write(`bench http: time limit of ${TIME_LIMIT_SECONDS} s reached, stopping\n`);
    process.exit(3);
  }, TIME_LIMIT_SECONDS * 1000);
  deadline.unref();
  await cryptoReady();
  const db = await createScratchDatabase('bench_http');
  const redis = await createTestRedis();
  const servers: Server[] = [];
  try {
    const coordinatorPort = await freePort();
    const coordinator = await start(
      'coordinator',
      ['apps/coordinator-api/src/main.ts'],
      {
        HOST: '127.0.0.1',
        COORDINATOR_PORT: String(coordinatorPort),
        ...devCoordinatorEnv(db.url, redis),
      },
      coordinatorPort,
      CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', CPU_PROF] : [],
    );
    servers.push(coordinator);
    const seedStart = Date.now();
    const submissionId = await seed(db.url);
    process.stdout.write(`seeded ${STORED_CLAIMS.toLocaleString('en-US')} active claims and ${STORED_SUBMISSIONS.toLocaleString('en-US')} decided submissions on one task in ${((Date.now() - seedStart) / 1000).toFixed(1)} s\n`);
    const barePort = await freePort();
    const bare = await start('bare', ['tools/bench/support/bare-coordinator.ts', String(barePort), db.url, BARE_PREPARED ? 'prepared' : 'plain'], {}, barePort);
    servers.push(bare);
    // The first snapshot read builds and stores it (a queued job would, after the first decision).
    const snapshot = await fetch(`${coordinator.url}/api/v1/reward-snapshot`);
    if (snapshot.status !== 200) throw new Error(`reward snapshot answered ${snapshot.status}`);

    const reads: [string, string][] = [
      ['GET /api/v1/tasks', '/api/v1/tasks'],
      ['GET /api/v1/tasks/{id}', `/api/v1/tasks/${BIG_TASK}`],
      ['GET /api/v1/tasks/{id}/best', `/api/v1/tasks/${BIG_TASK}/best`],
      ['GET /api/v1/reward-snapshot', '/api/v1/reward-snapshot'],
      ['GET /api/v1/dashboard', '/api/v1/dashboard'],
      ['GET /api/v1/miners/{hotkey}/results, 100,000 accepted', HEAVY_MINER_RESULTS_PATH],
    ];
    const rows: Row[] = [
      ...reads.map(([name]) => ({ name, target: 0.75, coordinator: [], bare: [] })),
      { name: 'GET /api/v1/submissions/{id} (signed)', target: 0.75, coordinator: [], bare: [] },
      { name: 'POST claim, task with no claims', target: 0.6, coordinator: [], bare: [] },
      { name: 'POST claim, task with 100,000 claims', target: 0.6, coordinator: [], bare: [] },
      { name: 'POST /api/v1/submissions', target: 0.6, coordinator: [], bare: [] },
    ];
    const loads: number[] = [];
    const [readRows, signedRow, claimNoneRow, claimFullRow, submitRow] = [rows.slice(0, reads.length), ...rows.slice(reads.length)];

    // Warm-up: JIT, connection pools, caches.
    for (const server of [coordinator, bare]) for (const [, path] of reads) await load(server.url, { path, seconds: 1 });

    const reader = makeSigners(1, 'reader')[0];
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? [coordinator, bare] : [bare, coordinator];
      const record = (row: Row, server: Server, m: Measured): void => void (server.name === 'coordinator' ? row.coordinator : row.bare).push(m);
      for (let r = 0; r < (runs('reads') ? reads.length : 0); r++) {
        for (const server of order) record(readRows[r], server, await load(server.url, { path: reads[r][1] }));
      }
      for (const server of runs('signed') ? order : []) {
        const url = `/api/v1/submissions/${submissionId}`;
        const headers = reader.signRequest({ method: 'GET', url });
        record(signedRow, server, await load(server.url, { path: url, next: () => ({ method: 'GET', path: url, headers: { ...headers } }) }));
      }
      for (const server of runs('writes') ? order : []) {
        const signers = makeSigners(WRITES, `${server.name}:${round}`);
        const bySigner = new Map(signers.map((s) => [s.hotkey, s]));
        const claimBody = JSON.stringify({ claim_description: 'bench claim' });
        record(claimNoneRow, server, await load(server.url, { path: '/', amount: WRITES, next: signedPosts(signers, () => `/api/v1/tasks/${emptyTask(server.name, round)}/claim`, () => claimBody), cpu: cpuGroups(server) }));
        const claims: { id: string; signer: BtAuthSigner }[] = [];
        const onBody = (status: number, body: string): void => {
          if (status !== 201) return;
          const claim = JSON.parse(body) as { id: string; miner_hotkey: string };
          const signer = bySigner.get(claim.miner_hotkey);
          if (signer) claims.push({ id: claim.id, signer });
        };
        record(claimFullRow, server, await load(server.url, { path: '/', amount: WRITES, next: signedPosts(signers, () => `/api/v1/tasks/${BIG_TASK}/claim`, () => claimBody), onBody, cpu: cpuGroups(server) }));
        const claimOf = new Map(claims.map((c) => [c.signer.hotkey, c.id]));
        const submitters = claims.map((c) => c.signer);
        const submitBody = (s: BtAuthSigner): string => JSON.stringify({ claim_id: claimOf.get(s.hotkey), base_ref: 'main', patch: PATCH, summary: 'bench submission' });
        record(submitRow, server, await load(server.url, { path: '/', amount: submitters.length, next: signedPosts(submitters, () => '/api/v1/submissions', submitBody), cpu: cpuGroups(server) }));
      }
      loads.push(loadavg()[0]);
      process.stdout.write(`round ${round + 1}/${ROUNDS} done, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);
    }

    process.stdout.write(
      `\n${CONNECTIONS} connections, reads ${SECONDS} s per run, writes ${WRITES} requests per run, ${ROUNDS} alternating rounds; coordinator at LOG_LEVEL=info; ` +
        `bare writes ${BARE_PREPARED ? 'as named prepared statements' : 'unprepared'}\n` +
        `load average (1 min) after each round: ${loads.map((l) => l.toFixed(2)).join(', ')}\n\n` +
        '| route | coordinator req/s (min / median / max) | bare req/s (min / median / max) | ratio (min / median / max) | target | coordinator p99 ms (median) | errors |\n' +
        '|---|---|---|---|---|---|---|\n',
    );
    let failed = 0;
    for (const row of rows.filter((r) => r.coordinator.length > 0)) {
      const ratios = row.coordinator.map((m, i) => m.rps / row.bare[i].rps);
      const met = median(ratios) >= row.target;
      const errors = [...row.coordinator, ...row.bare].reduce((sum, m) => sum + m.errors, 0);
      process.stdout.write(
        `| ${row.name} | ${spread(row.coordinator.map((m) => m.rps))} | ${spread(row.bare.map((m) => m.rps))} | ${spread(ratios, 2)} | ≥ ${row.target} ${met ? 'OK' : 'MISSED'} | ${median(row.coordinator.map((m) => m.p99)).toFixed(0)} | ${errors} |\n`,
      );
      if (errors > 0) failed += 1;
    }
    const counted = rows.filter((r) => r.coordinator.some((m) => m.cpuMs !== undefined));
    if (counted.length > 0) {
      const groups = Object.keys(counted[0].coordinator[0].cpuMs ?? {});
      process.stdout.write(
        `\nCPU ms per answered write (median over rounds; postgres and redis: all their processes; autocannon: this process)\n\n` +
          `| route | server | ${groups.map((g) => (g === 'server' ? 'server process' : g)).join(' | ')} | total |\n|---|---|${groups.map(() => '---|').join('')}---|\n`,
      );
      for (const row of counted) {
        for (const [server, measured] of [['coordinator', row.coordinator], ['bare', row.bare]] as const) {
          const per = groups.map((g) => median(measured.map((m) => m.cpuMs?.[g] ?? 0)));
          process.stdout.write(`| ${row.name} | ${server} | ${per.map((v) => v.toFixed(2)).join(' | ')} | ${per.reduce((a, b) => a + b, 0).toFixed(2)} |\n`);
        }
      }
      process.stdout.write('\n');
    }
    const flat = claimFullRow.coordinator.map((m, i) => m.rps / claimNoneRow.coordinator[i].rps);
    if (flat.length > 0) process.stdout.write(`| coordinator claims/s, 100,000 stored ÷ none | | | ${spread(flat, 2)} | ≥ 0.9 ${median(flat) >= 0.9 ? 'OK' : 'MISSED'} | | |\n`);
    return failed === 0 ? 0 : 1;
  } finally {
    for (const server of servers.reverse()) await server.stop();
    await redis.cleanup();
    await db.drop();
  }
}

runBenchmark(main);
