import type { Accelerators } from './accelerators';
import type { WorkspaceFs, WorkspaceFsSetting, WorkspaceVolumes } from './workspace-volume';

/**
 * What the replay pipeline asks of a sandbox. Paths are the same inside and outside: the workspace and every
 * read-only bind appear at their host path in every driver, so a manifest or result path written on the host
 * means the same thing to the benchmark (the `none` driver cannot remap, so it requires sandbox === host).
 * Drivers are built by `createSandbox` in ./create-sandbox.
 */
export interface SandboxRunRequest {
  /** Run with /bin/sh -c inside the sandbox, cwd = the workspace. */
  command: string;
  /** Host directory bound read-write at the same path; with a private tmp, the only writable place. */
  workspace: string;
  /** Bound read-only (e.g. the prefetched held-out data); pass sandbox === host to keep paths uniform. */
  readOnlyPaths?: { host: string; sandbox: string }[];
  /** Exactly what the process sees; PATH and HOME get defaults (SANDBOX_DEFAULT_PATH, /tmp) when absent. */
  env: Record<string, string>;
  /** Deadline for the whole run; everything the command started is killed when it passes. */
  timeoutMs: number;
  limits: SandboxLimits;
  /** Streamed stdout+stderr, for progress logs. */
  onOutput?: (chunk: string) => void;
}

export interface SandboxLimits {
  memoryBytes: number;
  pids: number;
  cpus: number;
  /** Combined output kept in the result; the tail is kept because results are printed last. */
  outputBytes: number;
  /** Largest file the command may write (RLIMIT_FSIZE); unlimited when absent (the runner's config always sets it). */
  fileBytes?: number;
  /** Size of the private /tmp (tmpfs); DEFAULT_TMP_BYTES when absent. */
  tmpBytes?: number;
  /** Size of /dev/shm (tmpfs); DEFAULT_SHM_BYTES when absent. */
  shmBytes?: number;
}

/** Every tmpfs a sandbox mounts is size-limited, whatever the request says. */
export const DEFAULT_TMP_BYTES = 1024 * 1024 * 1024;
export const DEFAULT_SHM_BYTES = 256 * 1024 * 1024;

export interface SandboxRunResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  outputTruncated: boolean;
  /** Combined stdout+stderr, at most limits.outputBytes, the tail kept. */
  output: string;
  durationMs: number;
}

/** How each limit is enforced by this sandbox on this host; 'none' means the limit is not enforced. */
export interface SandboxEnforcement {
  memory: 'cgroup' | 'rlimit-data' | 'docker' | 'none';
  pids: 'cgroup' | 'rlimit-nproc' | 'docker' | 'none';
  cpus: 'cgroup' | 'docker' | 'none';
  /** The workspace's disk quota (see WorkspaceVolumes). */
  disk: WorkspaceFs;
}

export type SandboxKind = 'bwrap' | 'docker' | 'none';

export interface Sandbox {
  readonly kind: SandboxKind;
  readonly enforcement: SandboxEnforcement;
  /** Makes each job's workspace, on its own quota-limited file system where the host allows it. */
  readonly workspaces: WorkspaceVolumes;
  /**
   * Resolves once the command has run (any exit status, killed, or timed out). Rejects with SandboxError only
   * when the sandbox itself could not start the command — an infrastructure failure, never the benchmark's.
   */
  run(req: SandboxRunRequest): Promise<SandboxRunResult>;
}

/** The subset of a pino logger the sandbox uses. */
export interface SandboxLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface SandboxConfig {
  kind: SandboxKind;
  /** The `none` driver runs benchmarks on the host unconfined; it must be asked for explicitly. */
  allowUnsafeNone: boolean;
  /** Image for the docker driver; required when kind is 'docker'. */
  dockerImage?: string;
  /** How workspaces get their disk quota; 'auto' (the default) takes the first that works on this host. */
  workspaceFs?: WorkspaceFsSetting;
  /** The GPUs to expose (see detectAccelerators): none when absent. */
  gpus?: Pick<Accelerators, 'selection' | 'deviceNodes'>;
  logger: SandboxLogger;
}

export type SandboxErrorCode = 'unsafe-none-refused' | 'misconfigured' | 'invalid-request' | 'start-failed';

export class SandboxError extends Error {
  constructor(
    readonly code: SandboxErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SandboxError';
  }
}

/** PATH inside the sandbox when the request does not set one. */
export const SANDBOX_DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
