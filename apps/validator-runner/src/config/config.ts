import { join, resolve } from 'node:path';
import { NO_VALIDATOR_IDENTITY, readValidatorIdentity, type IdentitySource } from '@rcs/auth';
import { MAX_SCAN_LIMIT } from '@rcs/contracts';
import { ConfigError, EnvReader, readRedisUrl } from '@rcs/config';
import { readServiceBaseConfig, ServiceBaseConfig } from '@rcs/http';
import { Accelerators, GpuSelection, parseGpuSelection } from '../sandbox/accelerators';
import type { SandboxKind, SandboxLimits } from '../sandbox/sandbox.port';
import { WORKSPACE_FS_SETTINGS, WorkspaceFsSetting } from '../sandbox/workspace-volume';
import { DEFAULT_HF_ROWS_URL } from '../replay/hf-rows';

export const SANDBOX_KINDS: readonly SandboxKind[] = ['bwrap', 'docker', 'none'];

/** Where the validator hotkey comes from (read as the weight setter reads it: `@rcs/auth`). */
export type { IdentitySource } from '@rcs/auth';

/** What the runner may fetch and from where (artifacts, held-out sources, repositories). */
export interface FetchPolicy {
  /** `http://` artifact and held-out URLs (local stacks and tests only). */
  allowInsecureHttp: boolean;
  /** Hosts resolving to loopback, private, link-local, unique-local or other non-public addresses. */
  allowPrivateAddresses: boolean;
  /** `file://` and absolute-path repositories and held-out sources (the local demo). */
  allowLocalSources: boolean;
  /** One artifact download or held-out prefetch at most this long, whatever the task's time budget leaves. */
  downloadTimeoutMs?: number;
  /** A download slower than this (bytes per second, over 10 s) stops as `error`; 0: no minimum. */
  downloadMinBytesPerSecond?: number;
}

export interface ValidatorRunnerConfig extends ServiceBaseConfig {
  coordinatorUrl: string;
  /** Null when none is configured; `run` and `once` refuse to start without one. */
  identity: IdentitySource | null;
  redisUrl: string;
  redisKeyPrefix: string;
  sandbox: {
    kind: SandboxKind;
    allowUnsafeNone: boolean;
    dockerImage: string | null;
    limits: SandboxLimits;
    /** The workspace's disk quota, and how it is enforced. */
    workspaceBytes: number;
    workspaceFs: WorkspaceFsSetting;
    /** SANDBOX_GPUS: the NVIDIA GPUs the sandbox exposes (checked against the host at start-up). */
    gpus: GpuSelection;
  };
  concurrency: number;
  workDir: string;
  keepWorkspaces: boolean;
  scanIntervalSeconds: number;
  scanLimit: number;
  fetch: FetchPolicy;
  /** Largest artifact this validator downloads, whatever the submission declares. */
  artifactMaxBytes: number;
  /** Largest held-out file this validator prefetches. */
  heldoutMaxBytes: number;
  /** Where the BitSota profile's Hugging Face row sources are fetched (DECISIONS §15). */
  hfRowsUrl: string;
  resultMaxBytes: number;
  logCapBytes: number;
  /** The part of the host environment git runs with (it clones on the host, not in the sandbox). */
  gitEnv: Record<string, string>;
  /** Per-request timeout of coordinator calls. */
  httpTimeoutMs: number;
  /** Attempts to post one result (network failures and 5xx); the first backoff doubles each time. */
  postAttempts: number;
  postBackoffMs: number;
}

const MIB = 1024 * 1024;
// What a clone over https or ssh may need from the host: tools, home (ssh keys, known hosts), agent, proxies.
const GIT_HOST_VARIABLES = ['PATH', 'HOME', 'SSH_AUTH_SOCK', 'GIT_SSH_COMMAND', 'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy'];
const GIB = 1024 * MIB;

export function loadValidatorRunnerConfig(env: NodeJS.ProcessEnv, cwd = process.cwd()): ValidatorRunnerConfig {
  const read = new EnvReader(env);
  const dataDir = resolve(cwd, read.string('DATA_DIR', '.data'));
  const sandboxKind = read.oneOf('SANDBOX', SANDBOX_KINDS, 'bwrap');
  const allowUnsafeNone = read.bool('SANDBOX_ALLOW_NONE', false);
  if (sandboxKind === 'none' && !allowUnsafeNone) {
    read.problems.push('SANDBOX=none runs benchmarks unconfined; it also needs SANDBOX_ALLOW_NONE=true');
  }
  const diskMb = read.int('SANDBOX_DISK_MB', 10 * 1024, 16, 1024 * 1024);
  const fileMb = read.int('SANDBOX_FILE_MB', 2 * 1024, 1, 1024 * 1024);
  const gpus = parseGpuSelection(read.string('SANDBOX_GPUS', 'none'));
  if (typeof gpus === 'string') read.problems.push(gpus);
  if (fileMb > diskMb) read.problems.push(`SANDBOX_FILE_MB (${fileMb}) is larger than the workspace quota SANDBOX_DISK_MB (${diskMb})`);
  const config: ValidatorRunnerConfig = {
    ...readServiceBaseConfig(read, 'VALIDATOR_RUNNER_PORT', 8100),
    coordinatorUrl: read.string('COORDINATOR_URL', 'http://127.0.0.1:8000').replace(/\/+$/, ''),
    identity: readValidatorIdentity(read),
    redisUrl: readRedisUrl(read),
    redisKeyPrefix: read.string('REDIS_KEY_PREFIX', 'rcs'),
    sandbox: {
      kind: sandboxKind,
      allowUnsafeNone,
      dockerImage: read.optional('SANDBOX_DOCKER_IMAGE'),
      limits: {
        memoryBytes: read.int('SANDBOX_MEMORY_MB', 4096, 64, 1024 * 1024) * MIB,
        pids: read.int('SANDBOX_PIDS', 256, 8, 65536),
        cpus: read.int('SANDBOX_CPUS', 2, 1, 1024),
        outputBytes: read.int('SANDBOX_OUTPUT_BYTES', 4 * MIB, 1024, 1024 * MIB),
        fileBytes: fileMb * MIB,
        tmpBytes: read.int('SANDBOX_TMP_MB', 1024, 1, 1024 * 1024) * MIB,
        shmBytes: read.int('SANDBOX_SHM_MB', 256, 1, 1024 * 1024) * MIB,
      },
      workspaceBytes: diskMb * MIB,
      workspaceFs: read.oneOf('SANDBOX_WORKSPACE_FS', WORKSPACE_FS_SETTINGS, 'auto'),
      gpus: typeof gpus === 'string' ? { kind: 'none' } : gpus,
    },
    concurrency: read.int('RUNNER_CONCURRENCY', 1, 1, 64),
    workDir: resolve(cwd, read.string('RUNNER_WORK_DIR', join(dataDir, 'runner'))),
    keepWorkspaces: read.bool('RUNNER_KEEP_WORKSPACES', false),
    scanIntervalSeconds: read.int('RUNNER_SCAN_INTERVAL_SECONDS', 10, 1, 3600),
    scanLimit: read.int('RUNNER_SCAN_LIMIT', 1, 1, MAX_SCAN_LIMIT),
    fetch: {
      allowInsecureHttp: read.bool('ALLOW_INSECURE_ARTIFACT_URIS', false),
      allowPrivateAddresses: read.bool('ALLOW_PRIVATE_ARTIFACT_HOSTS', false),
      allowLocalSources: read.bool('ALLOW_LOCAL_REPOSITORIES', false),
      downloadTimeoutMs: read.int('RUNNER_DOWNLOAD_TIMEOUT_SECONDS', 1800, 1, 7 * 86400) * 1000,
      downloadMinBytesPerSecond: read.int('RUNNER_DOWNLOAD_MIN_BYTES_PER_SECOND', 64 * 1024, 0, GIB),
    },
    artifactMaxBytes: read.int('RUNNER_ARTIFACT_MAX_MB', 20 * 1024, 1, 1024 * 1024) * MIB,
    heldoutMaxBytes: read.int('RUNNER_HELDOUT_MAX_MB', 2 * 1024, 1, 1024 * 1024) * MIB,
    hfRowsUrl: read.string('RUNNER_HF_ROWS_URL', DEFAULT_HF_ROWS_URL),
    resultMaxBytes: read.int('RUNNER_RESULT_MAX_BYTES', MIB, 1024, GIB),
    logCapBytes: read.int('RUNNER_LOG_CAP_BYTES', 64 * 1024, 1024, 64 * MIB),
    gitEnv: pick(env, GIT_HOST_VARIABLES),
    httpTimeoutMs: read.int('RUNNER_HTTP_TIMEOUT_SECONDS', 30, 1, 3600) * 1000,
    postAttempts: read.int('RUNNER_POST_ATTEMPTS', 5, 1, 100),
    postBackoffMs: read.int('RUNNER_POST_BACKOFF_MS', 1000, 0, 600_000),
  };
  if (read.problems.length > 0) throw new ConfigError(read.problems);
  return config;
}

function pick(env: NodeJS.ProcessEnv, names: string[]): Record<string, string> {
  return Object.fromEntries(names.flatMap((name) => (env[name] === undefined ? [] : [[name, env[name] as string]])));
}

/** The configuration of the commands that sign (`run`, `once`): an identity is set. */
export type SigningRunnerConfig = ValidatorRunnerConfig & { identity: IdentitySource };

export function requireIdentity(config: ValidatorRunnerConfig): SigningRunnerConfig {
  if (config.identity === null) {
    throw new ConfigError([NO_VALIDATOR_IDENTITY]);
  }
  return config as SigningRunnerConfig;
}

/** The configuration of `run`: an identity, and the accelerators found at start-up (see detectAccelerators). */
export type RunnerStartConfig = SigningRunnerConfig & { accelerators: Accelerators };

/** The one place this app reads the process environment. */
export function validatorRunnerConfigFromProcess(): ValidatorRunnerConfig {
  return loadValidatorRunnerConfig(process.env);
}
