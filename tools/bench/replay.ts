/**
 * `npm run bench -- replay`: a ternary replay end to end through the validator runner's ReplayPipeline
 * (clone of a local repository made from examples/competitions, artifact download and held-out prefetch over
 * loopback HTTP, the benchmark in the sandbox, its result read) against the same `python3 ternary/bench.py`
 * run directly on the host in the same rounds: per-phase medians and the overhead (end to end − direct run),
 * with bwrap (target ≤ 1.5 s) and, when the Docker engine answers and has the image, the docker sandbox.
 * The benchmark itself lives with the runner (apps/validator-runner/bench/replay.bench.ts).
 * BENCH_REPLAY_ROUNDS (5), BENCH_REPLAY_SANDBOXES (`bwrap,docker`), BENCH_REPLAY_DOCKER_IMAGE
 * (`rcs-local/sandbox:2`). About a minute on two cores.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const REPO_ROOT = join(__dirname, '..', '..');
const BENCH = join(REPO_ROOT, 'apps', 'validator-runner', 'bench', 'replay.bench.ts');
const TIME_LIMIT_MS = 5 * 60_000;

const settings = {
  rounds: Number(process.env.BENCH_REPLAY_ROUNDS ?? 5),
  sandboxes: (process.env.BENCH_REPLAY_SANDBOXES ?? 'bwrap,docker').split(',').filter((name) => name !== ''),
  dockerImage: process.env.BENCH_REPLAY_DOCKER_IMAGE ?? 'rcs-local/sandbox:2',
};
const run = spawnSync(process.execPath, ['-r', '@swc-node/register', BENCH, JSON.stringify(settings)], { cwd: REPO_ROOT, stdio: 'inherit', timeout: TIME_LIMIT_MS });
if (run.error) process.stderr.write(`replay benchmark did not finish: ${run.error.message}\n`);
process.exit(run.status ?? 1);
