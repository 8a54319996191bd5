import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GpuSelection } from './accelerators';
import { runHostProcess } from './host-process';
import { assertValidRequest, sandboxEnv } from './sandbox-request';
import { WorkspaceVolumes } from './workspace-volume';
import {
  DEFAULT_SHM_BYTES,
  DEFAULT_TMP_BYTES,
  Sandbox,
  SandboxEnforcement,
  SandboxError,
  SandboxLimits,
  SandboxLogger,
  SandboxRunRequest,
  SandboxRunResult,
} from './sandbox.port';

/** `docker run` exits 125 when the daemon could not create or start the container. */
const DOCKER_START_FAILED = 125;

export interface DockerRunInput {
  image: string;
  /** Container name, so the deadline can kill the container itself and not only the CLI. */
  name: string;
  /** `uid:gid` of the runner: the container owns the bind-mounted workspace without any capability. */
  user: string;
  command: string;
  workspace: string;
  readOnlyPaths: { host: string; sandbox: string }[];
  envFile: string;
  limits: SandboxLimits;
  /** SANDBOX_GPUS; none when absent. */
  gpus?: GpuSelection;
}

/**
 * `--gpus` of the NVIDIA Container Toolkit: `all`, or `"device=0,1"` (the quotes are part of the value, or
 * docker's CSV parsing would split the list at its comma). Nothing for `none`.
 */
export function dockerGpuArgs(gpus: GpuSelection): string[] {
  switch (gpus.kind) {
    case 'none':
      return [];
    case 'all':
      return ['--gpus', 'all'];
    case 'indices':
      return ['--gpus', `"device=${gpus.indices.join(',')}"`];
  }
}

/**
 * Read-only root, no network, no capabilities, no privilege gain, pids/memory(+swap)/cpu limits, a private /tmp;
 * the workspace is bound at its host path like the other drivers. Values travel in an env file, never in argv.
 */
export function dockerRunArgv(input: DockerRunInput): string[] {
  const { limits } = input;
  return [
    'docker',
    'run',
    '--rm',
    '--name',
    input.name,
    '--init',
    '--network',
    'none',
    '--read-only',
    '--cap-drop',
    'ALL',
    '--security-opt',
    'no-new-privileges',
    '--pids-limit',
    String(limits.pids),
    '--memory',
    String(limits.memoryBytes),
    '--memory-swap',
    String(limits.memoryBytes),
    '--cpus',
    String(limits.cpus),
    ...dockerGpuArgs(input.gpus ?? { kind: 'none' }),
    '--ulimit',
    'core=0',
    ...(limits.fileBytes === undefined ? [] : ['--ulimit', `fsize=${limits.fileBytes}`]),
    '--user',
    input.user,
    '--tmpfs',
    `/tmp:rw,exec,nosuid,nodev,size=${limits.tmpBytes ?? DEFAULT_TMP_BYTES}`,
    '--shm-size',
    String(limits.shmBytes ?? DEFAULT_SHM_BYTES),
    '--mount',
    `type=bind,src=${input.workspace},dst=${input.workspace}`,
    ...input.readOnlyPaths.flatMap((mount) => ['--mount', `type=bind,src=${mount.host},dst=${mount.sandbox},readonly`]),
    '--workdir',
    input.workspace,
    '--env-file',
    input.envFile,
    input.image,
    '/bin/sh',
    '-c',
    input.command,
  ];
}

/** docker's env-file format: one NAME=value per line, taken literally, so a value cannot hold a newline. */
export function dockerEnvFile(env: Record<string, string>): string {
  return Object.entries(env)
    .map(([name, value]) => {
      if (/[\r\n]/.test(value)) throw new SandboxError('invalid-request', `environment variable ${name} contains a line break, which docker cannot pass`);
      return `${name}=${value}\n`;
    })
    .join('');
}

export class DockerSandbox implements Sandbox {
  readonly kind = 'docker' as const;
  readonly enforcement: SandboxEnforcement;

  constructor(
    private readonly image: string,
    private readonly user: string,
    readonly workspaces: WorkspaceVolumes,
    private readonly logger: SandboxLogger,
    private readonly gpus: GpuSelection = { kind: 'none' },
  ) {
    this.enforcement = { memory: 'docker', pids: 'docker', cpus: 'docker', disk: workspaces.kind };
  }

  async run(req: SandboxRunRequest): Promise<SandboxRunResult> {
    assertValidRequest(req);
    const readOnlyPaths = req.readOnlyPaths ?? [];
    for (const path of [req.workspace, ...readOnlyPaths.flatMap((mount) => [mount.host, mount.sandbox])]) {
      if (path.includes(',')) throw new SandboxError('invalid-request', `docker --mount cannot take a path with a comma: ${path}`);
    }
    const envDir = mkdtempSync(join(tmpdir(), 'rcs-sandbox-env-'));
    try {
      const envFile = join(envDir, 'env');
      writeFileSync(envFile, dockerEnvFile(sandboxEnv(req.env)), { mode: 0o600 });
      const name = `rcs-sandbox-${randomBytes(8).toString('hex')}`;
      const argv = dockerRunArgv({ image: this.image, name, user: this.user, command: req.command, workspace: req.workspace, readOnlyPaths, envFile, limits: req.limits, gpus: this.gpus });
      const outcome = await runHostProcess({
        argv,
        // The CLI needs the runner's DOCKER_* settings; the container gets only the env file.
        env: 'inherit',
        cwd: req.workspace,
        timeoutMs: req.timeoutMs,
        outputBytes: req.limits.outputBytes,
        onOutput: req.onOutput,
        // Killing the CLI would leave the container running: kill the container, the CLI then exits by itself.
        terminate: () => this.killContainer(name),
      });
      if (outcome.exitCode === DOCKER_START_FAILED && !outcome.timedOut) {
        throw new SandboxError('start-failed', `docker could not start the sandbox container: ${outcome.output.slice(-2000).trim()}`);
      }
      const { exitCode, signal, timedOut, outputTruncated, output, durationMs } = outcome;
      return { exitCode, signal, timedOut, outputTruncated, output, durationMs };
    } finally {
      rmSync(envDir, { recursive: true, force: true });
    }
  }

  private killContainer(name: string): void {
    spawn('docker', ['rm', '--force', name], { stdio: 'ignore' }).on('error', (error) =>
      this.logger.warn({ err: error, container: name }, 'docker rm --force failed at the deadline'),
    );
  }
}
