/**
 * The reward snapshot at scale: 50 tasks, 5,000 miners, 200,000 accepted submissions (with their
 * claims), a best per task and idea rewards on the centerless tasks, seeded with generate_series.
 * Builds the snapshot three times and prints the time and peak memory of each build, next to a
 * plain scan of the submissions as a reference for this machine's speed.
 *
 * Run by tools/bench/snapshot.ts (`npm run bench -- snapshot`), which hands it a scratch database
 * URL, runs it with --expose-gc and drops the database afterwards.
 */
import { performance } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import type { DataSource } from 'typeorm';
import { openDatabase } from '@rcs/persistence';
import { COORDINATOR_ENTITIES, COORDINATOR_MIGRATIONS } from '../src/database';
import { defaultRewardPolicy } from '../src/rewards/reward-policy.defaults';
import { buildRewardSnapshot } from '../src/rewards/reward-snapshot.builder';
import { RewardSnapshotRepository } from '../src/rewards/reward-snapshot.repository';

const TASKS = 50;
const MINERS = 5_000;
const SUBMISSIONS = 200_000;
const BUILDS = 3;
const MiB = 1024 * 1024;

/** A deterministic pseudo-random number in [0, 1) from an expression (md5 of its text). */
const hashed = (expression: string): string => `(('x' || substr(md5((${expression})::text), 1, 8))::bit(32)::bigint & 2147483647) / 2147483648.0`;
/** The 48-character hotkey of submission i's miner: one of MINERS, spread over every task. */
const minerOf = (i: string): string => `'5' || md5('miner' || floor(${hashed(`'w' || ${i}`)} * ${MINERS})) || 'BenchMinerKey00'`;

async function seed(ds: DataSource): Promise<void> {
  await ds.query(
    `INSERT INTO tasks (id, slug, title, repository, base_ref, benchmark_command, allowed_patch_paths, max_patch_bytes, metric_name,
                        metric_direction, ranking_mode, competition_mode, min_peer_evaluations, time_budget_seconds, task_state)
     SELECT md5('task' || t)::uuid, 'bench-' || lpad(t::text, 2, '0'), 'Bench task ' || t, 'https://git.test/bench.git', 'main', 'python bench.py',
            '["src/**"]', 262144, 'score', CASE WHEN t % 2 = 0 THEN 'maximize' ELSE 'minimize' END, 'scalar',
            CASE WHEN t % 5 = 0 THEN 'centerless' ELSE 'standard' END, 2, 600, 'live'
     FROM generate_series(0, ${TASKS - 1}) AS t`,
  );
  // Submission i: task i % 50, one of 5,000 miners (48-character hotkeys), decided within the last 40 days.
  await ds.query(
    `INSERT INTO claims (id, task_id, miner_hotkey, claim_description, status, expires_at, created_at)
     SELECT md5('claim' || i)::uuid, md5('task' || (i % ${TASKS}))::uuid,
            ${minerOf('i')}, 'bench', 'submitted', now(), now()
     FROM generate_series(0, ${SUBMISSIONS - 1}) AS i`,
  );
  await ds.query(
    `INSERT INTO submissions (id, task_id, claim_id, miner_hotkey, base_ref, patch, summary, status, decided_at, verified_metric_value, created_at)
     SELECT md5('sub' || i)::uuid, md5('task' || (i % ${TASKS}))::uuid, md5('claim' || i)::uuid,
            ${minerOf('i')}, 'main', 'diff --git a/src/a.py b/src/a.py', 'bench',
            'accepted', now() - (${hashed("'d' || i")} * interval '40 days'),
            round((${hashed("'m' || i")} * 100)::numeric, 3)::float8, now() - interval '41 days'
     FROM generate_series(0, ${SUBMISSIONS - 1}) AS i`,
  );
  await ds.query(
    `INSERT INTO best_results (task_id, submission_id, metric_name, metric_direction, metric_value, miner_hotkey, updated_at)
     SELECT DISTINCT ON (s.task_id) s.task_id, s.id, 'score', t.metric_direction, s.verified_metric_value, s.miner_hotkey, s.decided_at
     FROM submissions s JOIN tasks t ON t.id = s.task_id
     ORDER BY s.task_id, CASE WHEN t.metric_direction = 'maximize' THEN -s.verified_metric_value ELSE s.verified_metric_value END, s.decided_at`,
  );
  // 100 idea rewards on each centerless task: consecutive submissions of the task as idea and implementation.
  await ds.query(
    `INSERT INTO idea_rewards (task_id, improved_submission_id, idea_submission_id, proposer_hotkey, implementer_hotkey, metric_name,
                               previous_metric_value, improved_metric_value, improvement_amount, created_at)
     SELECT s.task_id, s.id, idea.id, idea.miner_hotkey, s.miner_hotkey, 'score', idea.verified_metric_value, s.verified_metric_value,
            abs(s.verified_metric_value - idea.verified_metric_value), s.decided_at
     FROM generate_series(1, 100) AS k
     CROSS JOIN generate_series(0, ${TASKS - 1}, 5) AS t
     JOIN submissions s ON s.id = md5('sub' || (t + ${TASKS} * 2 * k))::uuid
     JOIN submissions idea ON idea.id = md5('sub' || (t + ${TASKS} * (2 * k - 1)))::uuid`,
  );
  await ds.query('ANALYZE');
}

/**
 * Peak RSS and V8 heap while `fn` runs, sampled every few milliseconds and at the end (a sample cannot
 * interrupt synchronous work, so `maxRssSoFar`, the kernel's exact high-water mark, is reported too).
 */
async function measured<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number; peakRss: number; peakHeap: number; maxRssSoFar: number }> {
  let peakRss = 0;
  let peakHeap = 0;
  const sample = (): void => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    peakHeap = Math.max(peakHeap, getHeapStatistics().used_heap_size);
  };
  const sampler = setInterval(sample, 5);
  const start = performance.now();
  try {
    const value = await fn();
    sample();
    return { value, ms: performance.now() - start, peakRss, peakHeap, maxRssSoFar: process.resourceUsage().maxRSS * 1024 };
  } finally {
    clearInterval(sampler);
  }
}

function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

async function main(): Promise<void> {
  const url = process.argv[2];
  if (!url) throw new Error('usage: snapshot.bench.ts <postgres url of an empty scratch database>');
  const opened = await openDatabase({ url, embeddedDir: '', entities: COORDINATOR_ENTITIES, migrations: COORDINATOR_MIGRATIONS, logger: { log: () => undefined, warn: () => undefined } });
  const ds = opened.dataSource;
  const snapshots = new RewardSnapshotRepository();
  try {
    const seeding = await measured(() => seed(ds));
    process.stdout.write(`seeded ${TASKS} tasks, ${MINERS} miners, ${SUBMISSIONS.toLocaleString('en-US')} accepted submissions in ${(seeding.ms / 1000).toFixed(1)} s\n`);
    // `--seed-only`: the web benchmark (tools/bench/web.ts) reuses this data set behind a running coordinator.
    if (process.argv.includes('--seed-only')) return;

    // The spec's defaults: the stddev floor and the duplicate tolerance both at work.
    const policy = defaultRewardPolicy();
    const scans: number[] = [];
    const builds: { ms: number; peakRss: number; maxRssSoFar: number; peakHeap: number; baseHeap: number; bytes: number; miners: number }[] = [];
    for (let run = 0; run < BUILDS; run++) {
      scans.push((await measured(() => ds.query('SELECT count(*), sum(verified_metric_value) FROM submissions'))).ms);
      collectGarbage();
      const baseHeap = getHeapStatistics().used_heap_size;
      const build = await measured(() => buildRewardSnapshot(ds, snapshots, () => Promise.resolve(policy), { scoreEmaDays: 10 }));
      const snapshot = JSON.parse(build.value.body) as { competitions: { miners: unknown[] }[] };
      builds.push({
        ms: build.ms,
        peakRss: build.peakRss,
        maxRssSoFar: build.maxRssSoFar,
        peakHeap: build.peakHeap,
        baseHeap,
        bytes: Buffer.byteLength(build.value.body),
        miners: snapshot.competitions.reduce((sum, c) => sum + c.miners.length, 0),
      });
    }

    const scanMs = [...scans].sort((a, b) => a - b)[Math.floor(scans.length / 2)];
    process.stdout.write(`reference: SELECT count(*), sum(verified_metric_value) FROM submissions: median ${scanMs.toFixed(0)} ms\n`);
    process.stdout.write('build  time (ms)  × scan  peak RSS (MiB)  max RSS so far (MiB)  peak heap (MiB)  heap above idle (MiB)  snapshot (KiB)  miner entries\n');
    builds.forEach((b, i) => {
      process.stdout.write(
        `${String(i + 1).padEnd(5)}  ${b.ms.toFixed(0).padStart(9)}  ${(b.ms / scanMs).toFixed(1).padStart(6)}  ${(b.peakRss / MiB).toFixed(0).padStart(14)}  ` +
          `${(b.maxRssSoFar / MiB).toFixed(0).padStart(20)}  ` +
          `${(b.peakHeap / MiB).toFixed(0).padStart(15)}  ${((b.peakHeap - b.baseHeap) / MiB).toFixed(0).padStart(21)}  ` +
          `${(b.bytes / 1024).toFixed(0).padStart(14)}  ${String(b.miners).padStart(13)}\n`,
      );
    });
    // Determinism at scale: the same data and generated_at give the same bytes.
    const at = new Date();
    const buildAt = (): Promise<{ body: string }> => buildRewardSnapshot(ds, snapshots, () => Promise.resolve(policy), { scoreEmaDays: 10, at });
    const [first, second] = [await buildAt(), await buildAt()];
    process.stdout.write(`two more builds for one generated_at: ${first.body === second.body ? 'byte-identical' : 'DIFFERENT'}\n`);
  } finally {
    await opened.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
