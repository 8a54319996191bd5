import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { checkPatch } from '@rcs/patch';
import { ReplaySpecDto, VerificationStatus } from '@rcs/contracts';
import type { FetchPolicy } from '../config/config';
import { Sandbox, SandboxError, SandboxLimits, SandboxRunResult } from '../sandbox/sandbox.port';
import { removeTree, unmountUnder, WorkspaceVolume } from '../sandbox/workspace-volume';
import { downloadArtifact } from './artifact-download';
import { artifactProfileEnv, HeldoutRotation, heldoutProfileEnv, PRIVATE_HELDOUT, ROW_SOURCES, rotationEnv, rowSourcesToken, usesProfile } from './bitsota-profile';
import { Deadline } from './deadline';
import { applyPatch, cloneAt } from './git-workspace';
import { CoordinatorSource, heldoutSandboxEnv, HeldoutManifest, planBenchmarkEnv, prefetchHeldout } from './heldout';
import { checkHeldoutRoot, HeldoutRoot, HeldoutRootError, prepareHeldoutRoot } from './heldout-root';
import { DEFAULT_HF_ROWS_URL, fetchRowSources, parseRowSources } from './hf-rows';
import { Redactor } from './redaction';
import { ReplayFailure } from './replay-failure';
import { ReplayLog } from './replay-log';
import { lastMetricInOutput, readResultFile, ResultFileRead, taskMetrics } from './result-reader';
import { benchmarkVerdict, exitDescription, publicNotes, setupVerdict } from './verdict';

export type ReplayStatus = VerificationStatus.Accepted | VerificationStatus.Rejected | VerificationStatus.Error;

/** What one replay observed; the result body is made of it (never of claimed metrics). */
export interface ReplayResult {
  status: ReplayStatus;
  observedMetrics: Record<string, number>;
  /** Public: one or two redacted sentences. */
  notes: string;
  /** Admin-only: phases and output tails, redacted and capped. */
  replayLog: string;
  /** Milliseconds per phase that ran, and `total`. */
  timings: Record<string, number>;
  /** The task metric per held-out item, when an accepted benchmark reported `per_item` (coordinator only, never logged). */
  perItem?: number[];
}

/** A validator job as the scan answers it, as much of it as a replay reads (the queue's job name is `ReplayJob`). */
export interface ValidatorJobToReplay {
  job_id: string;
  submission_id: string;
  replay_spec: ReplaySpecDto;
  /** The job's held-out rotation pair (DECISIONS §15); absent from saved jobs of older coordinators. */
  heldout_rotation?: HeldoutRotation | null;
}

export interface ReplayPipelineOptions {
  workDir: string;
  keepWorkspaces: boolean;
  /** Host environment for git (PATH, HOME, proxies, ssh agent). */
  gitEnv: Record<string, string>;
  fetch: FetchPolicy;
  artifactMaxBytes: number;
  heldoutMaxBytes: number;
  resultMaxBytes: number;
  logCapBytes: number;
  limits: SandboxLimits;
  /** The workspace's disk quota (the checkout and everything setup and benchmark write into it). */
  workspaceBytes: number;
  /** The coordinator, for held-out shards it holds (signed downloads); absent for replays without one. */
  coordinator?: CoordinatorSource;
  /** Where the profile's Hugging Face row sources are fetched (RUNNER_HF_ROWS_URL); default the public datasets-server. */
  hfRowsUrl?: string;
}

/** Environment every sandboxed command gets besides the task's. */
const BASE_ENV: Record<string, string> = { LANG: 'C.UTF-8', PYTHONUNBUFFERED: '1', PYTHONDONTWRITEBYTECODE: '1' };
const JOB_ID = /^[A-Za-z0-9_-]{1,128}$/;

interface JobDirs {
  root: string;
  repo: string;
  artifact: string;
  heldout: string;
}

/** The state of one replay while it runs: its deadline, log and timings. */
class ReplayRun {
  readonly timings: Record<string, number> = {};
  /** Set once the workspace exists (on its own quota-limited file system where the host allows it). */
  volume: WorkspaceVolume | null = null;

  constructor(
    readonly job: ValidatorJobToReplay,
    readonly dirs: JobDirs,
    readonly deadline: Deadline,
    readonly log: ReplayLog,
    readonly logger: Logger,
  ) {}

  /** Runs one phase: its duration is recorded and logged (with `fields` of its result), its failure logged. */
  async phase<T>(name: string, work: () => Promise<T>, fields: (value: T) => Record<string, unknown> = () => ({})): Promise<T> {
    const started = Date.now();
    this.logger.info({ phase: name }, `${name}: started`);
    try {
      const value = await work();
      const ms = (this.timings[name] = Date.now() - started);
      this.logger.info({ phase: name, ms, ...fields(value) }, `${name}: done`);
      return value;
    } catch (error) {
      const ms = (this.timings[name] = Date.now() - started);
      if (error instanceof ReplayFailure) this.logger.warn({ phase: name, ms, status: error.status }, `${name}: ${error.status}`);
      throw error;
    }
  }
}

/**
 * One replay of a leased job, within its time budget (one deadline for every phase): clone at the pinned
 * base, check and apply the patch, download and check the artifact, prefetch held-out data on the host,
 * run setup and benchmark in the sandbox, read the observed metrics. Never throws for the submission's
 * faults: every outcome is a ReplayResult.
 */
export class ReplayPipeline {
  constructor(
    private readonly options: ReplayPipelineOptions,
    private readonly sandbox: Sandbox,
    private readonly logger: Logger,
  ) {}

  async replay(job: ValidatorJobToReplay): Promise<ReplayResult> {
    const spec = job.replay_spec;
    const started = Date.now();
    // The rotation number is validator-private whatever its length.
    const rotation = job.heldout_rotation ?? null;
    const redactor = new Redactor(spec.validator_benchmark_env, rotation === null ? {} : { AUTORESEARCH_HELDOUT_SYNC_NUMBER: rotation.number });
    const log = new ReplayLog(redactor, this.options.logCapBytes);
    const logger = this.logger.child({ job_id: job.job_id, submission_id: job.submission_id });
    if (!JOB_ID.test(job.job_id)) {
      return { status: VerificationStatus.Error, observedMetrics: {}, notes: 'The job id is not usable as a directory name.', replayLog: '', timings: {} };
    }
    const dirs = jobDirs(this.options.workDir, job.job_id);
    const run = new ReplayRun(job, dirs, new Deadline(spec.time_budget_seconds * 1000), log, logger);
    log.line('replay', `job ${job.job_id}, submission ${job.submission_id}; budget ${spec.time_budget_seconds} s; sandbox ${this.sandbox.kind}`);
    let outcome: Omit<ReplayResult, 'replayLog' | 'timings'>;
    try {
      // A run that crashed may have left its workspace mounted, and the benchmark may have locked its files.
      unmountUnder(dirs.root);
      await removeTree(dirs.root);
      await Promise.all([dirs.artifact, dirs.heldout].map((dir) => mkdir(dir, { recursive: true })));
      run.volume = this.createWorkspace(dirs.repo);
      outcome = await this.execute(run);
    } catch (error) {
      if (!(error instanceof ReplayFailure)) {
        logger.error({ err: error }, 'replay failed unexpectedly');
        outcome = { status: VerificationStatus.Error, observedMetrics: {}, notes: `The validator failed: ${(error as Error).message}` };
      } else {
        if (error.logDetail !== null) log.line('failure', error.logDetail);
        outcome = { status: error.status, observedMetrics: {}, notes: error.note };
      }
    } finally {
      if (!this.options.keepWorkspaces) await this.removeJobDir(run);
    }
    const notes = publicNotes(outcome.notes, (text) => redactor.redactPublic(text));
    log.line('verdict', `${outcome.status}: ${notes}`);
    run.timings.total = Date.now() - started;
    return { ...outcome, notes, replayLog: log.render(), timings: run.timings };
  }

  /** The workspace on its quota; a host that cannot make one is the validator's failure, not the submission's. */
  private createWorkspace(dir: string): WorkspaceVolume {
    try {
      return this.sandbox.workspaces.create(dir, this.options.workspaceBytes);
    } catch (error) {
      if (!(error instanceof SandboxError)) throw error;
      throw ReplayFailure.error(`The validator could not create the workspace: ${error.message}`);
    }
  }

  /** Unmounts the workspace and removes the job's directory, whatever the benchmark did to its permissions. */
  private async removeJobDir(run: ReplayRun): Promise<void> {
    try {
      run.volume?.release();
      await removeTree(run.dirs.root);
    } catch (error) {
      run.logger.warn({ err: error, dir: run.dirs.root }, 'could not remove the workspace');
    }
  }

  private async execute(run: ReplayRun): Promise<Omit<ReplayResult, 'replayLog' | 'timings'>> {
    const spec = run.job.replay_spec;
    const { dirs, deadline, log } = run;
    const commit = await run.phase(
      'clone',
      () =>
        cloneAt({ repository: spec.repository, baseRef: spec.base_ref, baseCommitSha: spec.base_commit_sha }, dirs.repo, {
          env: this.options.gitEnv,
          allowLocalRepositories: this.options.fetch.allowLocalSources,
          deadline,
        }),
      (sha) => ({ commit: sha }),
    );
    log.line('clone', `checked out ${commit} (base ref ${spec.base_ref})`);

    if (spec.patch !== '') {
      const files = await run.phase('patch', () => this.applyPatch(run), (count) => ({ files: count, bytes: Buffer.byteLength(spec.patch) }));
      log.line('patch', `applied ${Buffer.byteLength(spec.patch)} bytes touching ${files} file(s)`);
    }

    const profile = usesProfile(spec.validator_benchmark_env);
    const plan = planBenchmarkEnv(spec.validator_benchmark_env);
    if (plan.undelivered.length > 0) {
      // The task names a coordinator shard the coordinator did not deliver: the validator's side (§6), never the miner's.
      throw ReplayFailure.error('The job came without the held-out data its task names.', `no delivery for ${plan.undelivered.join(', ')}`);
    }

    // What setup and benchmark both get: the artifact, never held-out data (only the benchmark sees that, §6).
    let artifactEnv: Record<string, string> = {};
    if (spec.artifact_uri !== null) {
      const uri = spec.artifact_uri;
      const artifact = await run.phase(
        'download',
        () =>
          downloadArtifact(
            { uri, sha256: spec.artifact_sha256, sizeBytes: spec.artifact_size_bytes },
            { directory: dirs.artifact, rules: httpRules(this.options.fetch), maxBytes: this.options.artifactMaxBytes, signal: deadline.signal() },
          ),
        (a) => ({ bytes: a.bytes, bytes_per_second: rate(a.bytes, a.durationMs), sha256: a.sha256 }),
      );
      // The runner's own paths win over a private value of the same name.
      artifactEnv = { ARTIFACT_PATH: artifact.path, ...(profile ? artifactProfileEnv(artifact.path, artifact.bytes) : {}) };
      log.line('download', `artifact ${artifact.bytes} bytes in ${artifact.durationMs} ms, sha256 ${artifact.sha256} checked`);
    }

    let manifest: HeldoutManifest = {};
    if (plan.sources.length > 0) {
      manifest = await run.phase(
        'prefetch',
        () =>
          prefetchHeldout(plan.sources, {
            directory: dirs.heldout,
            rules: { ...httpRules(this.options.fetch), allowFile: this.options.fetch.allowLocalSources },
            maxBytes: this.options.heldoutMaxBytes,
            signal: deadline.signal(),
            coordinator: this.options.coordinator,
            onDownloaded: (name, entry, ms) => run.logger.info({ phase: 'prefetch', source: name, bytes: entry.bytes, ms, bytes_per_second: rate(entry.bytes, ms) }, `prefetch: ${name} downloaded`),
          }),
        (m) => ({ sources: Object.keys(m), bytes: Object.values(m).reduce((sum, entry) => sum + entry.bytes, 0) }),
      );
      for (const [name, entry] of Object.entries(manifest)) log.line('prefetch', `${name}: ${entry.bytes} bytes, sha256 ${entry.sha256}, at ${entry.env}`);
    }
    if (plan.dropped.length > 0) log.line('prefetch', `not passed to the benchmark: ${plan.dropped.join(', ')}`);
    const prepared = profile ? await this.prepareProfileHeldout(run, manifest) : null;
    const profileEnv = profile ? { ...(prepared === null ? {} : heldoutProfileEnv(prepared, spec.validator_benchmark_env)), ...rotationEnv(run.job.heldout_rotation, spec.validator_benchmark_env) } : {};

    const setupEnv = { ...BASE_ENV, ...plan.plain, ...artifactEnv };
    if (spec.setup_command !== null && spec.setup_command.trim() !== '') {
      const setupMounts = [{ host: dirs.artifact, sandbox: dirs.artifact }];
      const setup = await run.phase('setup', () => this.inSandbox(run, 'setup', spec.setup_command as string, setupEnv, setupMounts), sandboxFields);
      if (setup.timedOut) throw ReplayFailure.error('The setup command ran past the time budget.');
      if (setup.exitCode !== 0) {
        const verdict = setupVerdict(setup, await this.limitsHit(run, setup));
        throw new ReplayFailure(verdict.status, verdict.notes);
      }
    }

    const heldout = plan.sources.length > 0 || prepared !== null;
    const benchEnv = { ...BASE_ENV, ...heldoutSandboxEnv(plan, manifest, dirs.heldout), ...profileEnv, ...artifactEnv };
    const benchMounts = [dirs.heldout, dirs.artifact].map((path) => ({ host: path, sandbox: path }));
    const bench = await run.phase('benchmark', () => this.inSandbox(run, 'benchmark', spec.benchmark_command, benchEnv, benchMounts), sandboxFields);
    if (bench.timedOut) throw ReplayFailure.error(heldout ? 'timeout' : 'The benchmark ran past the time budget.');
    return this.observe(run, bench, { profile, heldout });
  }

  /**
   * BitSota's manifest and root, checked on the host (§15): from the prefetched private shard, else from the Hugging
   * Face row sources fetched here; null when the task has neither. Any failure is the validator's.
   */
  private async prepareProfileHeldout(run: ReplayRun, manifest: HeldoutManifest): Promise<HeldoutRoot | null> {
    const shard = manifest[PRIVATE_HELDOUT];
    const sources = run.job.replay_spec.validator_benchmark_env[ROW_SOURCES];
    if (shard === undefined && sources === undefined) return null;
    const root = join(run.dirs.heldout, `${PRIVATE_HELDOUT}.root`);
    try {
      if (shard === undefined) await run.phase('rows', () => this.fetchRows(run, sources as string, root), (documents) => ({ documents }));
      const prepared = await run.phase(
        'prepare',
        () => (shard === undefined ? checkHeldoutRoot(root) : prepareHeldoutRoot(shard.path, root, this.options.heldoutMaxBytes)),
        (r) => ({ documents: r.documents }),
      );
      run.log.line('prepare', `their manifest lists ${prepared.documents} document(s)`);
      return prepared;
    } catch (error) {
      if (!(error instanceof HeldoutRootError)) throw error;
      throw ReplayFailure.error('The private held-out data could not be prepared for the benchmark.', error.message);
    }
  }

  /** The row sources' documents, fetched on the host with the private token (never the sandbox's). */
  private fetchRows(run: ReplayRun, sources: string, root: string): Promise<number> {
    return fetchRowSources(parseRowSources(sources), root, {
      rowsUrl: this.options.hfRowsUrl ?? DEFAULT_HF_ROWS_URL,
      token: rowSourcesToken(run.job.replay_spec.validator_benchmark_env),
      slot: run.job.heldout_rotation?.slot ?? null,
      signal: run.deadline.signal(),
    });
  }

  /** checkPatch (the coordinator's own rule) before `git apply`; answers the number of files. */
  private async applyPatch(run: ReplayRun): Promise<number> {
    const spec = run.job.replay_spec;
    const check = checkPatch(spec.patch, { allowedPatchPaths: spec.allowed_patch_paths, maxPatchBytes: spec.max_patch_bytes });
    if (!check.ok) {
      throw ReplayFailure.rejected(`The patch breaks the task's patch rules: ${check.violations.map((v) => `${v.type}: ${v.msg}`).join('; ')}`);
    }
    const patchFile = join(run.dirs.root, 'submission.patch');
    await writeFile(patchFile, spec.patch);
    await applyPatch(run.dirs.repo, patchFile, { env: this.options.gitEnv, deadline: run.deadline });
    return check.files.length;
  }

  private async inSandbox(
    run: ReplayRun,
    phase: string,
    command: string,
    env: Record<string, string>,
    readOnlyPaths: { host: string; sandbox: string }[],
  ): Promise<SandboxRunResult> {
    const timeoutMs = run.deadline.remainingMs();
    if (timeoutMs === 0) throw ReplayFailure.error(`The time budget ran out before the ${phase} command started.`);
    run.log.line(phase, `running in the ${this.sandbox.kind} sandbox with ${Math.ceil(timeoutMs / 1000)} s left`);
    let result: SandboxRunResult;
    try {
      result = await this.sandbox.run({ command, workspace: run.dirs.repo, readOnlyPaths, env, timeoutMs, limits: this.options.limits });
    } catch (error) {
      if (!(error instanceof SandboxError)) throw error;
      throw ReplayFailure.error(`The sandbox could not run the ${phase} command (${error.code}): ${error.message}`);
    }
    run.log.output(phase, result.output, result.outputTruncated);
    run.log.line(phase, `${exitDescription(result)} after ${result.durationMs} ms${result.timedOut ? ' (time budget)' : ''}`);
    return result;
  }

  /** The verdict of a benchmark that finished in time: its exit status, then the observed task metric (verdict.ts). */
  private async observe(run: ReplayRun, bench: SandboxRunResult, phase: { profile: boolean; heldout: boolean }): Promise<Omit<ReplayResult, 'replayLog' | 'timings'>> {
    const spec = run.job.replay_spec;
    let metrics: Record<string, number> = {};
    let read: ResultFileRead | null = null;
    let source = 'the output';
    if (spec.result_path !== null) {
      read = await readResultFile(run.dirs.repo, spec.result_path, this.options.resultMaxBytes);
      if ('metrics' in read) {
        metrics = read.metrics;
        source = spec.result_path;
      } else {
        run.log.line('result', `${read.problem}; falling back to the output`);
      }
    }
    for (const name of [spec.metric_name, spec.secondary_metric_name]) {
      if (name === null || Object.hasOwn(metrics, name)) continue;
      const value = lastMetricInOutput(bench.output, name);
      if (value !== null) metrics[name] = value;
    }
    if (!Object.hasOwn(metrics, spec.metric_name)) source = 'nowhere';
    const observed = taskMetrics(metrics, [spec.metric_name, spec.secondary_metric_name]);
    run.log.line('result', `observed ${JSON.stringify(observed)} (task metric from ${source})`);
    const limitsHit = bench.exitCode === 0 ? '' : await this.limitsHit(run, bench);
    const verdict = benchmarkVerdict(bench, { metricName: spec.metric_name, observed, read, source, limitsHit, ...phase });
    // A failed run posts no metric: what it printed is no observation the coordinator should weigh.
    if (verdict.status === VerificationStatus.Error) return { status: verdict.status, observedMetrics: {}, notes: verdict.notes };
    const perItem = read !== null && 'perItem' in read && source === spec.result_path ? read.perItem : undefined;
    return { status: verdict.status, observedMetrics: observed, notes: verdict.notes, ...(perItem === undefined ? {} : { perItem }) };
  }

  /** `; it hit …` naming the sandbox limits a failed command ran into (the workspace quota, the file size limit), or ''. */
  private async limitsHit(run: ReplayRun, result: SandboxRunResult): Promise<string> {
    const hit: string[] = [];
    if (run.volume !== null && (await run.volume.full())) hit.push(`the workspace quota (${mebibytes(run.volume.quotaBytes)} MB)`);
    const fileBytes = this.options.limits.fileBytes;
    // EFBIG's message: Python and most runtimes ignore SIGXFSZ and report the failed write instead.
    if (fileBytes !== undefined && (result.signal === 'SIGXFSZ' || /File too large/.test(result.output))) hit.push(`the file size limit (${mebibytes(fileBytes)} MB)`);
    if (hit.length === 0) return '';
    const text = `; it hit ${hit.join(' and ')}`;
    run.log.line('limits', text.slice(2));
    return text;
  }
}

function mebibytes(bytes: number): number {
  return Math.round(bytes / (1024 * 1024));
}

function jobDirs(workDir: string, jobId: string): JobDirs {
  const root = join(workDir, jobId);
  return { root, repo: join(root, 'repo'), artifact: join(root, 'artifact'), heldout: join(root, 'heldout') };
}

/** The download rules of the runner's fetch policy: which hosts and schemes, and each download's own time bounds. */
function httpRules(policy: FetchPolicy): { allowInsecureHttp: boolean; allowPrivateAddresses: boolean; pace?: { timeoutMs: number; minBytesPerSecond: number } } {
  const rules = { allowInsecureHttp: policy.allowInsecureHttp, allowPrivateAddresses: policy.allowPrivateAddresses };
  if (policy.downloadTimeoutMs === undefined) return rules;
  return { ...rules, pace: { timeoutMs: policy.downloadTimeoutMs, minBytesPerSecond: policy.downloadMinBytesPerSecond ?? 0 } };
}

function sandboxFields(result: SandboxRunResult): Record<string, unknown> {
  return { exit_code: result.exitCode, signal: result.signal, timed_out: result.timedOut, output_truncated: result.outputTruncated };
}


function rate(bytes: number, ms: number): number {
  return Math.round((bytes * 1000) / Math.max(1, ms));
}
