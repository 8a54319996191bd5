import { spawnSync } from 'node:child_process';
import { lstatSync, readlinkSync } from 'node:fs';
import { runHostProcess, killPid } from './host-process';
import { LimitPlan, releaseLaunch } from './limit-plan';
import { assertValidRequest, sandboxEnv } from './sandbox-request';
import { WorkspaceVolumes } from './workspace-volume';
import {
  DEFAULT_SHM_BYTES,
  DEFAULT_TMP_BYTES,
  Sandbox,
  SandboxEnforcement,
  SandboxError,
  SandboxLogger,
  SandboxRunRequest,
  SandboxRunResult,
} from './sandbox.port';

/** The uid/gid the command runs as inside; it maps to the runner's own uid, so the workspace stays writable. */
const SANDBOX_UID = '65534';
const SYSTEM_DIRS = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];
/** What interpreters need from /etc: the dynamic loader's cache, name service files, the timezone. */
const ETC_FILES = [
  '/etc/alternatives',
  '/etc/group',
  '/etc/hosts',
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/localtime',
  '/etc/nsswitch.conf',
  '/etc/passwd',
];

/**
 * Read-only system mounts: /usr, the top-level dirs (as symlinks on a merged-/usr host) and a few /etc files.
 * Nothing else of the host exists inside: no /root, /home, /var, /work or the repository.
 */
export function systemMountArgs(): string[] {
  const args = ['--ro-bind', '/usr', '/usr'];
  for (const dir of SYSTEM_DIRS) {
    const stat = lstatSync(dir, { throwIfNoEntry: false });
    if (stat?.isSymbolicLink()) args.push('--symlink', readlinkSync(dir), dir);
    else if (stat?.isDirectory()) args.push('--ro-bind', dir, dir);
  }
  for (const file of ETC_FILES) args.push('--ro-bind-try', file, file);
  return args;
}

export interface BwrapArgvInput {
  bwrap: string;
  systemMounts: string[];
  command: string;
  workspace: string;
  readOnlyPaths: { host: string; sandbox: string }[];
  /** Size of the private /tmp (tmpfs). */
  tmpBytes: number;
  /** Size of /dev/shm (tmpfs). */
  shmBytes: number;
  /** Host device nodes bound into /dev (the NVIDIA GPUs of SANDBOX_GPUS); none when absent. */
  devices?: DeviceNode[];
}

/** A host device node and where it appears in the sandbox's /dev. */
export interface DeviceNode {
  host: string;
  sandbox: string;
}

/**
 * `--dev-bind` of each device node into the private /dev, before it turns read-only: the GPU stays usable (an
 * ioctl or a write to a device is not a write to the file system). The driver's libraries and nvidia-smi are
 * under /usr, already bound read-only; /proc/driver/nvidia comes with the sandbox's own /proc.
 */
export function deviceBindArgs(devices: DeviceNode[]): string[] {
  return devices.flatMap((device) => ['--dev-bind', device.host, device.sandbox]);
}

/**
 * Every namespace unshared (no network: only a loopback of its own), no capabilities, no nested user namespaces,
 * a new session (no TIOCSTI into the runner's terminal), killed with the runner.
 */
const ISOLATION_ARGS = [
  '--unshare-all',
  '--unshare-user',
  '--disable-userns',
  '--die-with-parent',
  '--new-session',
  '--cap-drop',
  'ALL',
  '--uid',
  SANDBOX_UID,
  '--gid',
  SANDBOX_UID,
  '--hostname',
  'sandbox',
];

/**
 * bwrap's /dev is a tmpfs of the host's default size (half the RAM), writable by the sandbox user: it is made
 * read-only once its device nodes are in, and /dev/shm gets a sized tmpfs of its own (see bwrapArgv). The
 * device nodes stay usable: writing to a device is not writing to the file system.
 */
const DEV_ARGS = ['--dev', '/dev'];

/**
 * The environment is read from fd 4 (see bwrapEnvArgs), so its values never show on a host command line and
 * never reach the host-side launchers (an LD_PRELOAD there would run outside the sandbox).
 */
export function bwrapArgv(input: BwrapArgvInput): string[] {
  return [
    input.bwrap,
    ...ISOLATION_ARGS,
    ...input.systemMounts,
    '--proc',
    '/proc',
    ...DEV_ARGS,
    ...deviceBindArgs(input.devices ?? []),
    '--size',
    String(input.shmBytes),
    '--tmpfs',
    '/dev/shm',
    '--remount-ro',
    '/dev',
    '--size',
    String(input.tmpBytes),
    '--tmpfs',
    '/tmp',
    '--bind',
    input.workspace,
    input.workspace,
    ...input.readOnlyPaths.flatMap((mount) => ['--ro-bind', mount.host, mount.sandbox]),
    '--chdir',
    input.workspace,
    '--args',
    '4',
    '--json-status-fd',
    '3',
    '--',
    '/bin/sh',
    '-c',
    input.command,
  ];
}

/** `--clearenv --setenv NAME VALUE …`, NUL-separated for `--args`. Names and values hold no NUL (validated). */
export function bwrapEnvArgs(env: Record<string, string>): Buffer {
  const args = ['--clearenv', ...Object.entries(env).flatMap(([name, value]) => ['--setenv', name, value])];
  return Buffer.from(`${args.join('\0')}\0`);
}

export class BwrapSandbox implements Sandbox {
  readonly kind = 'bwrap' as const;
  readonly enforcement: SandboxEnforcement;

  constructor(
    private readonly bwrap: string,
    private readonly systemMounts: string[],
    private readonly limits: LimitPlan,
    readonly workspaces: WorkspaceVolumes,
    private readonly logger: SandboxLogger,
    private readonly devices: DeviceNode[] = [],
  ) {
    this.enforcement = { ...limits.enforcement, disk: workspaces.kind };
  }

  /** Fails at boot, not at the first job, when this host cannot create the namespaces (or bind the GPUs). */
  assertWorks(): void {
    const args = [...ISOLATION_ARGS, ...this.systemMounts, '--proc', '/proc', ...DEV_ARGS, ...deviceBindArgs(this.devices), '--', '/bin/sh', '-c', 'exit 0'];
    const probe = spawnSync(this.bwrap, args, { env: {}, encoding: 'utf8' });
    if (probe.status !== 0) {
      const reason = probe.error?.message ?? probe.stderr.trim();
      throw new SandboxError('misconfigured', `bubblewrap cannot create a sandbox on this host: ${reason}`);
    }
  }

  async run(req: SandboxRunRequest): Promise<SandboxRunResult> {
    assertValidRequest(req);
    const inner = bwrapArgv({
      bwrap: this.bwrap,
      systemMounts: this.systemMounts,
      command: req.command,
      workspace: req.workspace,
      readOnlyPaths: req.readOnlyPaths ?? [],
      tmpBytes: req.limits.tmpBytes ?? DEFAULT_TMP_BYTES,
      shmBytes: req.limits.shmBytes ?? DEFAULT_SHM_BYTES,
      devices: this.devices,
    });
    // fd 3 carries bwrap's status out, fd 4 the environment in; bwrap closes both before the command starts.
    const launch = this.limits.launch(inner, req.limits, 4);
    try {
      const outcome = await runHostProcess({
        argv: launch.argv,
        env: {},
        cwd: req.workspace,
        timeoutMs: req.timeoutMs,
        outputBytes: req.limits.outputBytes,
        onOutput: req.onOutput,
        statusFd: true,
        argsFdInput: bwrapEnvArgs(sandboxEnv(req.env)),
        // SIGKILL to the namespace's init makes the kernel kill every process in it, daemons included; bwrap
        // itself exits only once they are all gone, so the run settles with nothing left behind.
        terminate: (status) => {
          const init = status.find((doc) => typeof doc['child-pid'] === 'number')?.['child-pid'];
          if (typeof init === 'number') killPid(init, 'SIGKILL');
        },
      });
      const exited = outcome.status.some((doc) => typeof doc['exit-code'] === 'number');
      if (!exited && !outcome.timedOut) {
        throw new SandboxError('start-failed', `bubblewrap could not run the command (exit ${outcome.exitCode}): ${outcome.output.slice(-2000)}`);
      }
      const { exitCode, signal, timedOut, outputTruncated, output, durationMs } = outcome;
      return { exitCode, signal, timedOut, outputTruncated, output, durationMs };
    } finally {
      await releaseLaunch(launch, this.logger);
    }
  }
}
