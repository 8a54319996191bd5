/**
 * `npm run bench -- snapshot`: builds the reward snapshot for 50 tasks, 5,000 miners and 200,000
 * accepted submissions and reports time and peak memory per build. The benchmark itself lives with
 * the coordinator (apps/coordinator-api/bench/snapshot.bench.ts, which migrates and seeds); this
 * tool gives it a scratch database on the TEST_DATABASE_URL server and drops it afterwards.
 * About a minute.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { createScratchDatabase } from '@rcs/testing';
import { runBenchmark } from './support/run-benchmark';

const REPO_ROOT = join(__dirname, '..', '..');
const BENCH = join(REPO_ROOT, 'apps', 'coordinator-api', 'bench', 'snapshot.bench.ts');
const TIME_LIMIT_MS = 5 * 60_000;

async function main(): Promise<number> {
  const db = await createScratchDatabase('bench_snapshot');
  try {
    const run = spawnSync(process.execPath, ['--expose-gc', '-r', '@swc-node/register', BENCH, db.url], {
      cwd: REPO_ROOT,
      stdio: 'inherit',
      timeout: TIME_LIMIT_MS,
    });
    if (run.error) process.stderr.write(`snapshot benchmark did not finish: ${run.error.message}\n`);
    return run.status ?? 1;
  } finally {
    await db.drop();
  }
}

runBenchmark(main);
