import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MetricDirection, RankingMode, ReplaySpecDto } from '@rcs/contracts';
import type { ValidatorJobToReplay } from '../src/replay/replay-pipeline';

/**
 * A tiny benchmark repository: bench.py computes `loss` from data.txt and model.py's SCALE and writes
 * result.json. Plain env switches (validator-private values passed through) make it misbehave:
 * BENCH_MODE=exit-3 exits 3, BENCH_MODE=sleep-forever outlives any budget, BENCH_MODE=print-only only prints the metric,
 * BENCH_MODE=leak-heldout writes every held-out row as a metric name (a miner trying to publish hidden data).
 * It records its environment in env.json, and reads HELDOUT_PATH and ARTIFACT_PATH when given.
 */
export const BENCH_PY = `import json, os, sys, time
from model import SCALE

data = [float(x) for x in open("data.txt").read().split()]
loss = abs(SCALE - 2.0) * sum(data) / len(data)
mode = os.environ.get("BENCH_MODE", "")
json.dump(dict(os.environ), open("env.json", "w"))
metrics = {"loss": loss, "rows": len(data)}
if os.environ.get("HELDOUT_PATH"):
    rows = open(os.environ["HELDOUT_PATH"]).read().splitlines()
    metrics["heldout_rows"] = len(rows)
    if mode == "leak-heldout":
        metrics.update({row: 1 for row in rows})
        metrics["metrics"] = {"leak:" + row: 1 for row in rows}
if os.environ.get("ARTIFACT_PATH"):
    metrics["artifact_bytes"] = os.path.getsize(os.environ["ARTIFACT_PATH"])
print("step 1 loss=99")
print("loss=%s" % loss)
if mode == "exit-3":
    print("benchmark failed on purpose", file=sys.stderr)
    sys.exit(3)
if mode == "sleep-forever":
    time.sleep(600)
if mode != "print-only":
    json.dump(metrics, open("result.json", "w"))
`;

export const MODEL_PY = 'SCALE = 1.0\n';

/** A patch (as `git diff` writes it) setting SCALE; loss becomes |scale - 2| * 2.5 (1.5 → 1.25, 1.75 → 0.625, 1.25 → 1.875). */
export function scalePatch(scale: string): string {
  return `diff --git a/model.py b/model.py\nindex 0000000..1111111 100644\n--- a/model.py\n+++ b/model.py\n@@ -1 +1 @@\n-SCALE = 1.0\n+SCALE = ${scale}\n`;
}

/** A patch that edits bench.py, outside an allowed surface of model.py only. */
export const BENCH_PATCH = 'diff --git a/bench.py b/bench.py\n--- a/bench.py\n+++ b/bench.py\n@@ -1 +1 @@\n-import json, os, sys, time\n+import json, os, sys, time  # edited\n';

/** Creates the repository in `dir` with one commit; answers the commit id. */
export function createBenchRepo(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@rcs.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, encoding: 'utf8' }).trim();
  git('init', '-q', '-b', 'main');
  writeFileSync(join(dir, 'bench.py'), BENCH_PY);
  writeFileSync(join(dir, 'model.py'), MODEL_PY);
  writeFileSync(join(dir, 'data.txt'), '1 2 3 4\n');
  git('add', '.');
  git('commit', '-q', '-m', 'baseline');
  return git('rev-parse', 'HEAD');
}

/** The replay spec of a scalar `loss` benchmark of `model.py` in a local repository at `commit`; `fields` override. */
export function localReplaySpec(repository: string, commit: string, fields: Partial<ReplaySpecDto> = {}): ReplaySpecDto {
  return {
    repository: `file://${repository}`,
    base_ref: 'main',
    base_commit_sha: commit,
    setup_command: null,
    benchmark_command: 'python3 bench.py',
    result_path: 'result.json',
    allowed_patch_paths: ['model.py'],
    metric_name: 'loss',
    metric_direction: MetricDirection.Minimize,
    ranking_mode: RankingMode.Scalar,
    secondary_metric_name: null,
    secondary_metric_direction: null,
    validator_benchmark_env: {},
    time_budget_seconds: 60,
    max_patch_bytes: 10_000,
    patch: '',
    artifact_uri: null,
    artifact_sha256: null,
    artifact_size_bytes: null,
    ...fields,
  };
}

/** A leased validator job of its own that replays `spec`. */
export function jobToReplay(spec: ReplaySpecDto): ValidatorJobToReplay {
  return { job_id: randomUUID(), submission_id: randomUUID(), replay_spec: spec };
}
