/**
 * `npm run bench -- pool`: 200 miners each lease and submit 8 evaluations, all at once, against one pool
 * process; then the same number of bare pool-wallet signed no-op requests (the auth ceiling: HTTP, the
 * signature check and the one-time-signature write to Redis, nothing else) against a process running the
 * same HTTP stack and guard. Reports per phase the miners served per second (a miner's two requests
 * complete), p50/p99 request latency, and the pool/ceiling ratio (DECISIONS.md §11, issue target ≥ 0.5).
 * A second pool process runs with the stake gate on (POOL_STAKE_CHECK, every miner staked and owned through
 * DEV_CHAIN_SEED): the gated/ungated ratio is what the gate's cached chain reads cost (issue target: < 10 %).
 * Two alternating rounds of each, best of each reported. About three minutes.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BtAuthSigner, cryptoReady, keypairFromUri, PoolSignedHeaders } from '@rcs/auth';
import { createScratchDatabase, createTestRedis, freePort, spawnService, waitForHttp } from '@rcs/testing';
import { LEADERBOARD_MINERS, measureLeaderboard, seedReputationEvents } from './support/leaderboard';
import { runBenchmark } from './support/run-benchmark';

const REPO_ROOT = join(__dirname, '..', '..');
const MINERS = 200;
const EVALUATIONS = 8;
const SEEDS = 2000;
const WARMUP_MINERS = 20;
const ROUNDS = 2;

interface Phase {
  name: string;
  minersPerSecond: number;
  p50: number;
  p99: number;
  failures: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function timed(url: string, headers: PoolSignedHeaders, body: unknown, latencies: number[]): Promise<{ status: number; json: unknown }> {
  const start = performance.now();
  const response = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json: unknown = await response.json();
  latencies.push(performance.now() - start);
  return { status: response.status, json };
}

/** Every miner runs `work` at once; signatures are made before the clock starts (the clients' cost, not the server's). */
async function phase(name: string, miners: BtAuthSigner[], work: (miner: BtAuthSigner, headers: [PoolSignedHeaders, PoolSignedHeaders], latencies: number[]) => Promise<boolean>): Promise<Phase> {
  const headers = miners.map((m): [PoolSignedHeaders, PoolSignedHeaders] => [m.signPool(), m.signPool()]);
  const latencies: number[] = [];
  const start = performance.now();
  const outcomes = await Promise.all(miners.map((m, i) => work(m, headers[i], latencies)));
  const seconds = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return { name, minersPerSecond: miners.length / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), failures: outcomes.filter((ok) => !ok).length };
}

function poolWork(url: string, window: number) {
  return async (_miner: BtAuthSigner, [leaseHeaders, submitHeaders]: [PoolSignedHeaders, PoolSignedHeaders], latencies: number[]): Promise<boolean> => {
    const lease = await timed(`${url}/api/v1/tasks/lease`, leaseHeaders, { sim_window_number: window, eval_batch_size: EVALUATIONS }, latencies);
    if (lease.status !== 200) return false;
    const { lease_id, evaluate_algorithms } = lease.json as { lease_id: string; evaluate_algorithms: { id: number }[] };
    const body = { evaluations: evaluate_algorithms.map((a) => ({ algorithm_id: a.id, score: 0.5 + (a.id % 3) * 0.001 })), evolutions: [] };
    const submit = await timed(`${url}/api/v1/tasks/${lease_id}/submit_lease`, submitHeaders, body, latencies);
    return submit.status === 200 && evaluate_algorithms.length === EVALUATIONS;
  };
}

function noopWork(url: string) {
  return async (_miner: BtAuthSigner, [first, second]: [PoolSignedHeaders, PoolSignedHeaders], latencies: number[]): Promise<boolean> => {
    const a = await timed(`${url}/noop`, first, {}, latencies);
    const b = await timed(`${url}/noop`, second, {}, latencies);
    return a.status === 200 && b.status === 200;
  };
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function main(): Promise<number> {
  await cryptoReady();
  const db = await createScratchDatabase('bench_pool');
  const redis = await createTestRedis();
  const dir = mkdtempSync(join(tmpdir(), 'bench-pool-'));
  const seedFile = join(dir, 'seeds.json');
  writeFileSync(seedFile, JSON.stringify(Array.from({ length: SEEDS }, (_, i) => ({ task_type: 'cifar10_binary', algorithm_dsl: `s1 = dot(v0, v1)\ns2 = s1 * ${i}`, input_dim: 16 }))));
  const noopPort = await freePort();
  const noop = spawn(process.execPath, ['-r', '@swc-node/register', join(__dirname, 'support', 'noop-server.ts'), String(noopPort), redis.url, redis.prefix], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const keys = await Promise.all(Array.from({ length: MINERS + WARMUP_MINERS }, (_, i) => keypairFromUri(`//bench//pool//${i}`)));
  const owners = await Promise.all(Array.from({ length: MINERS + WARMUP_MINERS }, (_, i) => keypairFromUri(`//bench//pool//owner//${i}`)));
  const staked = { subnets: { '1': keys.map((pair, i) => ({ hotkey: pair.address, stake: '1000000000', owner: owners[i].address })) } };
  const gatedDb = await createScratchDatabase('bench_pool_gated');
  const poolEnv = (database: string, prefix: string) => ({ POOL_DATABASE_URL: database, REDIS_URL: redis.url, REDIS_KEY_PREFIX: prefix, CHAIN: 'dev', NETUID: '1', POOL_DEV_WINDOWS: 'true', POOL_SEED_FILE: seedFile });
  const spawnPool = (env: Record<string, string>) => spawnService({ entry: 'apps/pool-service/src/main.ts', portVariable: 'POOL_PORT', healthPath: '/healthz', timeoutMs: 120_000, env });
  let pool = await spawnPool({ ...poolEnv(db.url, redis.prefix), POOL_STAKE_CHECK: 'off' });
  const gated = await spawnPool({ ...poolEnv(gatedDb.url, `${redis.prefix}:gated`), POOL_STAKE_CHECK: 'on', DEV_CHAIN_SEED: JSON.stringify(staked) });
  try {
    const noopUrl = `http://127.0.0.1:${noopPort}`;
    await waitForHttp(`${noopUrl}/healthz`, 60_000);
    const signers = keys.map((pair) => new BtAuthSigner(pair));
    const [warm, miners] = [signers.slice(0, WARMUP_MINERS), signers.slice(WARMUP_MINERS)];
    await phase('warm-up', warm, noopWork(noopUrl));
    await phase('warm-up', warm, poolWork(pool.url, 1));
    await phase('warm-up', warm, poolWork(gated.url, 1));
    // Alternating rounds, best of each kind: on a shared machine one round alone measures the neighbours.
    const names = ['signed no-op (auth ceiling)', `lease + submit_lease of ${EVALUATIONS} evaluations`, 'the same, stake gate on (POOL_STAKE_CHECK)'];
    const phases: Phase[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      phases.push(await phase(names[0], miners, noopWork(noopUrl)));
      phases.push(await phase(names[1], miners, poolWork(pool.url, 2 + round)));
      phases.push(await phase(names[2], miners, poolWork(gated.url, 2 + round)));
    }
    const best = (name: string) => phases.filter((p) => p.name === name).sort((x, y) => y.minersPerSecond - x.minersPerSecond)[0];
    const [ceiling, mining, gatedMining] = names.map(best);
    const width = Math.max(...names.map((name) => name.length));
    const lines = [
      `${MINERS} miners at once, 2 requests each; ${SEEDS} pending algorithms; ${ROUNDS} alternating rounds`,
      `${'phase'.padEnd(width)}  ${'miners/s'.padStart(9)}  ${'p50 ms'.padStart(7)}  ${'p99 ms'.padStart(7)}  failures`,
      ...phases.map(
        (p) => `${p.name.padEnd(width)}  ${p.minersPerSecond.toFixed(1).padStart(9)}  ${p.p50.toFixed(1).padStart(7)}  ${p.p99.toFixed(1).padStart(7)}  ${p.failures}`,
      ),
      `pool / ceiling (best rounds): ${(mining.minersPerSecond / ceiling.minersPerSecond).toFixed(2)}× (submissions/s ${mining.minersPerSecond.toFixed(1)}, p99 ${mining.p99.toFixed(0)} ms vs ${ceiling.minersPerSecond.toFixed(1)}, p99 ${ceiling.p99.toFixed(0)} ms)`,
      `gated / ungated pool (best rounds): ${(gatedMining.minersPerSecond / mining.minersPerSecond).toFixed(2)}× (the stake gate and owner reads cost ${((1 - gatedMining.minersPerSecond / mining.minersPerSecond) * 100).toFixed(1)} %; p99 ${gatedMining.p99.toFixed(0)} ms vs ${mining.p99.toFixed(0)} ms)`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);

    // The leaderboard at 10⁶ reputation events: the pool rebuilds its standings at boot, then the reads are timed.
    const events = await seedReputationEvents(db.url);
    await pool.stop();
    pool = await spawnPool({ ...poolEnv(db.url, redis.prefix), POOL_STAKE_CHECK: 'off' });
    const board = await measureLeaderboard(db.url, pool.url, events);
    process.stdout.write(
      [
        `leaderboard at ${board.events} reputation events (${LEADERBOARD_MINERS} miners), median ms of ${'100'} reads:`,
        `  pool query over its standings ${board.standingsMs.toFixed(2)}, bare read of the same answer from one table ${board.bareMs.toFixed(2)}: ${(board.standingsMs / board.bareMs).toFixed(2)}× (goal ≤ 2×)`,
        `  GET /api/v1/miners/leaderboard ${board.httpMs.toFixed(2)} over HTTP; the all-history sum it replaced ${board.allHistoryMs.toFixed(0)}`,
      ].join('\n') + '\n',
    );
    return phases.every((p) => p.failures === 0) ? 0 : 1;
  } finally {
    await pool.stop();
    await gated.stop();
    await stop(noop);
    await redis.cleanup();
    await db.drop();
    await gatedDb.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

runBenchmark(main);
