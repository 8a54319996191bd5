/**
 * `npm run bench -- exposure`: Blum & Hardt's boosting attack through the coordinator's release rule, exact release
 * vs the held-out budget (DECISIONS §17). The benchmark lives with the coordinator
 * (apps/coordinator-api/bench/exposure.bench.ts); its last line is
 * `exposure: exact gap G1, budget gap G2, honest released P %`, and it exits non-zero when a goal is missed.
 * `--step=S` tries another release step (default 1/32).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const REPO_ROOT = join(__dirname, '..', '..');
const BENCH = join(REPO_ROOT, 'apps', 'coordinator-api', 'bench', 'exposure.bench.ts');

const run = spawnSync(process.execPath, ['-r', '@swc-node/register', BENCH, ...process.argv.slice(2)], { cwd: REPO_ROOT, stdio: 'inherit', timeout: 5 * 60_000 });
if (run.error) process.stderr.write(`exposure benchmark did not finish: ${run.error.message}\n`);
process.exit(run.status ?? 1);
