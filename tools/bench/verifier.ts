/**
 * `npm run bench -- verifier`: verifying a payout epoch of 100,000 leaves (DECISIONS.md §16) against
 * the pool's own build of the same epoch in the same run. The pool's build (allocation and tree, as its
 * rollover computes them) runs in one process and writes the epoch's inputs; the verifier's judgement
 * (hash, shape, split, cumulative amounts, 100,000 recipient signatures, root) runs in another on
 * them. Target: verify ≤ 3× build, both for an epoch whose recipient records the verifier has judged before
 * and for the first judgement, which checks every sr25519 signature on one worker thread per core; exits 1 when either
 * misses it or when the honest epoch is not `verified`.
 * About three minutes on two cores (making 100,000 signed recipient records takes much of it).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBenchmark } from './support/run-benchmark';

const REPO_ROOT = join(__dirname, '..', '..');
const LEAVES = 100_000;
const TARGET_RATIO = 3;

function run(bench: string, args: string[]): Record<string, unknown> {
  const result = spawnSync(process.execPath, ['-r', '@swc-node/register', join(REPO_ROOT, bench), ...args], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 30 * 60_000, maxBuffer: 1 << 20 });
  if (result.status !== 0) throw new TypeError(`${bench} failed (${result.status ?? result.signal}): ${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
}

async function main(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-verifier-'));
  try {
    const built = run('apps/pool-service/bench/epoch-build.bench.ts', [dir, String(LEAVES)]);
    const verified = run('apps/payout-verifier/bench/verify.bench.ts', [dir]);
    const ms = (value: unknown) => `${Number(value).toFixed(0)} ms`;
    const ratio = Number(verified['verify_ms']) / Number(built['build_ms']);
    const coldRatio = Number(verified['verify_cold_ms']) / Number(built['build_ms']);
    process.stdout.write(
      `epoch of ${String(built['leaves'])} leaves (${String(verified['result'])}${verified['check'] ? `: ${String(verified['check'])}` : ''}): pool build ${ms(built['build_ms'])}; ` +
        `verifier ${ms(verified['verify_ms'])} with the recipient signatures already judged, ratio ${ratio.toFixed(2)} (target ≤ ${TARGET_RATIO}); ` +
        `first judgement (every signature checked) ${ms(verified['verify_cold_ms'])}, ratio ${coldRatio.toFixed(2)} (target ≤ ${TARGET_RATIO})\n`,
    );
    return verified['result'] === 'verified' && ratio <= TARGET_RATIO && coldRatio <= TARGET_RATIO ? 0 : 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

runBenchmark(main);
