/**
 * One ternary replay end to end through the runner's own ReplayPipeline (wired as `validator-runner run` wires
 * it, with the default sandbox limits and workspace quota): a clone of a local git repository made from
 * examples/competitions, the packed artifact downloaded over loopback HTTP with its SHA-256 checked, a held-out
 * shard prefetched over loopback HTTP with its token, the benchmark in the sandbox, its result read. The
 * reference, measured in the same rounds: the same `python3 ternary/bench.py` run directly on the host with the
 * same artifact and shard. Overhead = end to end − that direct run.
 *
 * Run by tools/bench/replay.ts (`npm run bench -- replay`), which passes its settings as one JSON argument:
 * `{"rounds": 5, "sandboxes": ["bwrap", "docker"], "dockerImage": "rcs-local/sandbox:2"}`. A docker
 * sandbox is measured only where the engine answers and has the image; otherwise the line says why.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import pino from 'pino';
import { MetricDirection, RankingMode, ReplaySpecDto, VerificationStatus } from '@rcs/contracts';
import { loadValidatorRunnerConfig } from '../src/config/config';
import { ReplayPipeline, ReplayResult } from '../src/replay/replay-pipeline';
import { detectAccelerators } from '../src/sandbox/accelerators';
import { unmountUnder } from '../src/sandbox/workspace-volume';
import { createReplayPipeline } from '../src/runner/wiring';

type SandboxName = 'bwrap' | 'docker';

interface Settings {
  rounds: number;
  sandboxes: SandboxName[];
  dockerImage: string;
}

/** The host tools a replay needs (git, python3, bwrap, docker), without reading the bench's own environment. */
const PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
const PACKS = resolve(__dirname, '..', '..', '..', 'examples', 'competitions');
const SECRET_SEED = 'bench-replay-heldout-seed';
const TOKEN = `bench-token-${randomBytes(8).toString('hex')}`;
/** What the runner gives every sandboxed command besides the task's (replay-pipeline.ts BASE_ENV), for the direct run. */
const BASE_ENV = { LANG: 'C.UTF-8', PYTHONUNBUFFERED: '1', PYTHONDONTWRITEBYTECODE: '1' };
const PHASES = ['workspace', 'clone', 'download', 'prefetch', 'benchmark', 'result+cleanup'] as const;

class BenchFailure extends Error {}

/** One replay's figures in milliseconds: each phase, and the wall time of `replay()` as the caller sees it. */
interface ReplayFigures {
  phases: Record<(typeof PHASES)[number], number>;
  endToEnd: number;
}

interface Fixture {
  root: string;
  origin: string;
  commit: string;
  direct: string;
  artifact: Buffer;
  artifactPath: string;
  shard: Buffer;
  shardPath: string;
  heldoutPpl: number;
  compressedBytes: number;
}

function parseSettings(raw: string | undefined): Settings {
  const given = (raw === undefined ? {} : JSON.parse(raw)) as Partial<Settings>;
  const rounds = given.rounds ?? 5;
  const sandboxes = given.sandboxes ?? ['bwrap', 'docker'];
  if (!Number.isInteger(rounds) || rounds < 1) throw new BenchFailure(`rounds must be a positive integer, not ${String(rounds)}`);
  for (const name of sandboxes) if (name !== 'bwrap' && name !== 'docker') throw new BenchFailure(`unknown sandbox ${String(name)}`);
  return { rounds, sandboxes, dockerImage: given.dockerImage ?? 'rcs-local/sandbox:2' };
}

function run(file: string, args: string[], cwd: string): string {
  return execFileSync(file, args, { cwd, encoding: 'utf8', env: { PATH, HOME: cwd, OPENBLAS_NUM_THREADS: '1', ...BASE_ENV } }).trim();
}

/** The task repository (the packs as an operator commits them), a miner's packed artifact and the operator's held-out shard. */
function makeFixture(): Fixture {
  const root = mkdtempSync(join(tmpdir(), 'rcs-bench-replay-'));
  const origin = join(root, 'origin');
  for (const part of ['lib', 'ternary', 'tools', 'README.md', '.gitignore']) cpSync(join(PACKS, part), join(origin, part), { recursive: true });
  const git = (...args: string[]) => run('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@rcs.invalid', '-c', 'commit.gpgsign=false', ...args], origin);
  git('init', '-q', '-b', 'main');
  git('add', '.');
  git('commit', '-qm', 'packs');
  const commit = git('rev-parse', 'HEAD');
  const direct = join(root, 'direct');
  run('git', ['clone', '-q', origin, direct], root);

  const miner = join(root, 'miner');
  mkdirSync(miner);
  run('python3', [join(origin, 'ternary', 'train.py')], miner);
  run('python3', [join(origin, 'ternary', 'pack.py'), '--out', 'model.npz', '--rescue-fraction', '0.05', '--scale-group', '8'], miner);
  const shardPath = join(root, 'heldout.txt');
  run('python3', [join(origin, 'tools', 'make_heldout.py'), '--seed', SECRET_SEED, '--out', shardPath], root);
  const artifactPath = join(miner, 'model.npz');
  return { root, origin, commit, direct, artifact: readFileSync(artifactPath), artifactPath, shard: readFileSync(shardPath), shardPath, heldoutPpl: NaN, compressedBytes: NaN };
}

/** The artifact host and the held-out host in one loopback server; the shard needs the token. */
async function startServer(fixture: Fixture): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    if (request.url === '/artifacts/model.npz') return void response.writeHead(200, { 'content-length': fixture.artifact.length }).end(fixture.artifact);
    if (request.url === '/heldout/shard.txt') {
      if (request.headers.authorization !== `Bearer ${TOKEN}`) return void response.writeHead(401).end();
      return void response.writeHead(200, { 'content-length': fixture.shard.length }).end(fixture.shard);
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((done) => server.close(() => done()));
    },
  };
}

/** `python3 ternary/bench.py` on the host, as the sandbox runs it (`/bin/sh -c`, the same environment): its wall time. */
async function directRun(fixture: Fixture): Promise<number> {
  const env = { PATH, HOME: fixture.root, ...BASE_ENV, ARTIFACT_PATH: fixture.artifactPath, HELDOUT_PATH: fixture.shardPath };
  const started = performance.now();
  const code = await new Promise<number | null>((done, fail) => {
    const child = spawn('/bin/sh', ['-c', 'python3 ternary/bench.py'], { cwd: fixture.direct, env, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', fail);
    child.on('exit', (status) => done(status));
  });
  const ms = performance.now() - started;
  if (code !== 0) throw new BenchFailure(`the direct benchmark run exited with ${String(code)}`);
  const result = JSON.parse(readFileSync(join(fixture.direct, 'result.json'), 'utf8')) as { heldout_ppl: number; compressed_bytes: number };
  fixture.heldoutPpl = result.heldout_ppl;
  fixture.compressedBytes = result.compressed_bytes;
  return ms;
}

/** The ternary task's replay spec (its README's task), with the artifact and the held-out shard on the loopback server. */
function replaySpec(fixture: Fixture, url: string): ReplaySpecDto {
  return {
    repository: `file://${fixture.origin}`,
    base_ref: 'main',
    base_commit_sha: fixture.commit,
    setup_command: null,
    benchmark_command: 'python3 ternary/bench.py',
    result_path: 'result.json',
    allowed_patch_paths: ['ternary/train.py'],
    metric_name: 'heldout_ppl',
    metric_direction: MetricDirection.Minimize,
    ranking_mode: RankingMode.Scalar,
    secondary_metric_name: 'compressed_bytes',
    secondary_metric_direction: MetricDirection.Minimize,
    validator_benchmark_env: {
      HELDOUT_URL: `${url}/heldout/shard.txt`,
      HELDOUT_TOKEN: TOKEN,
      HELDOUT_SHA256: createHash('sha256').update(fixture.shard).digest('hex'),
    },
    time_budget_seconds: 120,
    max_patch_bytes: 262_144,
    patch: '',
    artifact_uri: `${url}/artifacts/model.npz`,
    artifact_sha256: createHash('sha256').update(fixture.artifact).digest('hex'),
    artifact_size_bytes: fixture.artifact.length,
  };
}

/** A pino logger whose lines the bench reads back: the pipeline logs `<phase>: started` and `<phase>: done` with their times. */
function recordingLogger(): { logger: pino.Logger; lines: { time: number; msg: string }[] } {
  const lines: { time: number; msg: string }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line !== '') lines.push(JSON.parse(line) as { time: number; msg: string });
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink), lines };
}

/** Why the docker sandbox cannot be measured here, or null when the engine answers and has the image. */
function dockerUnavailable(image: string): string | null {
  try {
    execFileSync('docker', ['version', '-f', '{{.Server.Version}}'], { env: { PATH }, stdio: ['ignore', 'pipe', 'pipe'], timeout: 20_000 });
  } catch {
    return 'the Docker engine does not answer';
  }
  try {
    execFileSync('docker', ['image', 'inspect', '-f', '{{.Id}}', image], { env: { PATH }, stdio: ['ignore', 'pipe', 'pipe'], timeout: 20_000 });
  } catch {
    return `no image ${image} (bash deploy/docker/local-base.sh sandbox builds it)`;
  }
  return null;
}

class Measured {
  readonly lines: { time: number; msg: string }[];
  readonly pipeline: ReplayPipeline;

  constructor(
    readonly name: SandboxName,
    fixture: Fixture,
    dockerImage: string,
  ) {
    const { logger, lines } = recordingLogger();
    this.lines = lines;
    const config = loadValidatorRunnerConfig({
      PATH,
      HOME: fixture.root,
      SANDBOX: name,
      SANDBOX_DOCKER_IMAGE: dockerImage,
      ALLOW_LOCAL_REPOSITORIES: 'true',
      ALLOW_INSECURE_ARTIFACT_URIS: 'true',
      ALLOW_PRIVATE_ARTIFACT_HOSTS: 'true',
      RUNNER_WORK_DIR: join(fixture.root, `work-${name}`),
    });
    this.pipeline = createReplayPipeline(config, logger, detectAccelerators({ kind: 'none' }));
  }

  async replay(fixture: Fixture, spec: ReplaySpecDto): Promise<ReplayFigures> {
    this.lines.length = 0;
    const job = { job_id: randomBytes(8).toString('hex'), submission_id: randomBytes(8).toString('hex'), replay_spec: spec };
    const startedAt = Date.now();
    const started = performance.now();
    const result = await this.pipeline.replay(job);
    const endToEnd = performance.now() - started;
    const endedAt = Date.now();
    this.check(fixture, result);
    const at = (msg: string): number => {
      const line = this.lines.find((l) => l.msg === msg);
      if (line === undefined) throw new BenchFailure(`${this.name}: the pipeline logged no "${msg}"`);
      return line.time;
    };
    return {
      phases: {
        workspace: at('clone: started') - startedAt,
        clone: result.timings.clone,
        download: result.timings.download,
        prefetch: result.timings.prefetch,
        benchmark: result.timings.benchmark,
        'result+cleanup': endedAt - at('benchmark: done'),
      },
      endToEnd,
    };
  }

  /** An accepted replay that observed what the direct run computed (the same artifact on the same rows). */
  private check(fixture: Fixture, result: ReplayResult): void {
    const ppl = result.observedMetrics.heldout_ppl;
    const same = Math.abs(ppl - fixture.heldoutPpl) <= 1e-9 * fixture.heldoutPpl && result.observedMetrics.compressed_bytes === fixture.compressedBytes;
    if (result.status !== VerificationStatus.Accepted || !same) {
      throw new BenchFailure(`${this.name} replay: ${result.status}, ${result.notes} ${JSON.stringify(result.observedMetrics)}\n${result.replayLog.slice(-3000)}`);
    }
  }
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const seconds = (ms: number): string => (ms / 1000).toFixed(3).padStart(7);

async function main(): Promise<void> {
  const settings = parseSettings(process.argv[2]);
  let mark = performance.now();
  const lap = (): string => {
    const now = performance.now();
    const text = seconds(now - mark).trim();
    mark = now;
    return text;
  };
  const fixture = makeFixture();
  const setup = [`repository, training, packing and shard ${lap()} s`];
  const server = await startServer(fixture);
  const skipped: string[] = [];
  try {
    const measured: Measured[] = [];
    for (const name of settings.sandboxes) {
      const why = name === 'docker' ? dockerUnavailable(settings.dockerImage) : null;
      if (why === null) measured.push(new Measured(name, fixture, settings.dockerImage));
      else skipped.push(`${name}: not measured, ${why}`);
      setup.push(`${name} sandbox start-up checks ${lap()} s`);
    }
    const spec = replaySpec(fixture, server.url);
    process.stdout.write(
      `ternary replay: artifact ${fixture.artifact.length} B (sha256 checked), held-out shard ${fixture.shard.length} B (token, sha256), ` +
        `both over loopback HTTP; load average ${loadavg()[0].toFixed(2)}\nsetup (not timed): ${setup.join(', ')}\n`,
    );

    // A warm-up round (page cache, first container), then rounds alternating the direct run and each sandbox.
    await directRun(fixture);
    for (const m of measured) await m.replay(fixture, spec);
    const direct: number[] = [];
    const figures = new Map<SandboxName, ReplayFigures[]>(measured.map((m) => [m.name, []]));
    for (let round = 0; round < settings.rounds; round++) {
      direct.push(await directRun(fixture));
      for (const m of measured) figures.get(m.name)?.push(await m.replay(fixture, spec));
    }

    const names = measured.map((m) => m.name);
    const header = `median of ${settings.rounds} rounds (s)`.padEnd(34) + names.map((n) => n.padStart(9)).join('');
    const row = (label: string, pick: (f: ReplayFigures) => number): string => label.padEnd(34) + names.map((n) => seconds(median((figures.get(n) ?? []).map(pick))).padStart(9)).join('');
    const lines = [header, ...PHASES.map((phase) => row(`  ${phase}`, (f) => f.phases[phase])), row('end to end (replay())', (f) => f.endToEnd)];
    lines.push(`${'direct python3 ternary/bench.py'.padEnd(34)}${seconds(median(direct)).padStart(9)}   (host, no sandbox; rounds ${direct.map((ms) => (ms / 1000).toFixed(2)).join(' ')})`);
    process.stdout.write(`${lines.join('\n')}\n`);

    // Overhead: the medians' difference (a direct run and a replay of the same round are not a pair on a shared
    // machine); the part outside the benchmark phase is per replay, both figures coming from the same one.
    const directMedian = median(direct);
    for (const m of measured) {
      const rounds = figures.get(m.name) ?? [];
      const endToEnd = median(rounds.map((f) => f.endToEnd));
      const overhead = endToEnd - directMedian;
      const outside = median(rounds.map((f) => f.endToEnd - f.phases.benchmark));
      const inSandbox = median(rounds.map((f) => f.phases.benchmark)) - directMedian;
      const target = m.name === 'bwrap' ? ` (target <= 1.5 s: ${overhead <= 1500 ? 'met' : 'missed'})` : '';
      process.stdout.write(
        `${m.name}: overhead = end to end - direct run = ${seconds(overhead).trim()} s${target}, ${(endToEnd / directMedian).toFixed(2)}x the direct run; ` +
          `end to end - benchmark phase = ${seconds(outside).trim()} s; benchmark phase - direct run (the sandbox's start and stop) = ${seconds(inSandbox).trim()} s; ` +
          `end to end per round ${rounds.map((f) => (f.endToEnd / 1000).toFixed(2)).join(' ')}\n`,
      );
    }
    for (const line of skipped) process.stdout.write(`${line}\n`);
  } finally {
    await server.close();
    unmountUnder(fixture.root);
    rmSync(fixture.root, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof BenchFailure ? error.message : ((error as Error).stack ?? String(error))}\n`);
    process.exit(1);
  },
);
