import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, ftruncateSync, mkdirSync, openSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { chmod, lstat, readdir, rm, statfs } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { resolveExecutable } from './limit-plan';
import { SandboxError, SandboxLogger } from './sandbox.port';

/**
 * How the workspace (the only writable host directory a benchmark gets) is held to its quota:
 * - `ext4-loop`: a sparse image file of exactly the quota, formatted ext4 and loop-mounted on the workspace;
 *   the host disk holds at most the image, whatever the benchmark writes.
 * - `tmpfs`: a size-limited tmpfs mounted on the workspace (memory, charged to the sandbox's memory cgroup).
 * - `none`: a plain host directory; only the per-file limit applies. Used when this host refuses mounts
 *   (a runner without CAP_SYS_ADMIN), and said so at boot.
 */
export type WorkspaceFs = 'ext4-loop' | 'tmpfs' | 'none';
export type WorkspaceFsSetting = WorkspaceFs | 'auto';

export const WORKSPACE_FS_SETTINGS: readonly WorkspaceFsSetting[] = ['auto', 'ext4-loop', 'tmpfs', 'none'];

/** One job's workspace directory, on its own quota-limited file system when the kind is not `none`. */
export interface WorkspaceVolume {
  readonly dir: string;
  readonly quotaBytes: number;
  /** True when the file system holding the workspace has (almost) no space left: the benchmark hit the quota. */
  full(): Promise<boolean>;
  /** Unmounts the file system and deletes its image; the directory itself is left (empty) for the caller to remove. */
  release(): void;
}

export interface WorkspaceVolumes {
  readonly kind: WorkspaceFs;
  /** Creates `dir` (it must not exist) as a workspace of at most `quotaBytes`; throws SandboxError('start-failed'). */
  create(dir: string, quotaBytes: number): WorkspaceVolume;
}

/** Below this much free space (or 1 % of the quota, whichever is larger) the workspace counts as full. */
const FULL_SLACK_BYTES = 1024 * 1024;
const MOUNT_TIMEOUT_MS = 60_000;
const PROBE_BYTES = 16 * 1024 * 1024;

/** The workspace file system for this host: the configured one, or for `auto` the first that works (ext4-loop, tmpfs, none). */
export function probeWorkspaceVolumes(setting: WorkspaceFsSetting, logger: SandboxLogger): WorkspaceVolumes {
  const candidates: ('ext4-loop' | 'tmpfs')[] = setting === 'auto' ? ['ext4-loop', 'tmpfs'] : setting === 'none' ? [] : [setting];
  const failures: string[] = [];
  for (const kind of candidates) {
    const volumes = new MountedVolumes(kind);
    const probeDir = join(tmpdir(), `rcs-workspace-probe-${process.pid}-${randomBytes(4).toString('hex')}`);
    try {
      volumes.create(probeDir, PROBE_BYTES).release();
      return volumes;
    } catch (error) {
      failures.push(`${kind}: ${(error as Error).message}`);
    } finally {
      rmSync(probeDir, { recursive: true, force: true });
    }
  }
  if (setting !== 'auto' && setting !== 'none') {
    throw new SandboxError('misconfigured', `SANDBOX_WORKSPACE_FS=${setting} does not work on this host: ${failures.join('; ')}`);
  }
  // createSandbox warns that `disk` is not enforced; this says why.
  if (setting === 'auto') logger.info({ tried: failures }, 'workspaces get no disk quota on this host (no mount privilege): only the file size limit applies');
  return new PlainVolumes();
}

class MountedVolumes implements WorkspaceVolumes {
  constructor(readonly kind: 'ext4-loop' | 'tmpfs') {}

  create(dir: string, quotaBytes: number): WorkspaceVolume {
    const { uid, gid } = userInfo();
    mkdirSync(dir, { mode: 0o755 });
    let image: string | null = null;
    try {
      if (this.kind === 'tmpfs') {
        run('mount', ['-t', 'tmpfs', '-o', `size=${quotaBytes},mode=0755,uid=${uid},gid=${gid},nosuid,nodev`, 'tmpfs', dir]);
      } else {
        image = `${dir}.img`;
        // Sparse: the image takes host disk only as the benchmark fills it, and never more than its size.
        const fd = openSync(image, 'wx', 0o600);
        try {
          ftruncateSync(fd, quotaBytes);
        } finally {
          closeSync(fd);
        }
        run('mkfs.ext4', ['-q', '-F', '-m', '0', '-O', '^has_journal', '-E', `root_owner=${uid}:${gid},nodiscard`, image]);
        run('mount', ['-o', 'loop,nosuid,nodev', image, dir]);
        // A clone needs an empty directory.
        rmdirSync(join(dir, 'lost+found'));
      }
    } catch (error) {
      try {
        unmountUnder(dir);
      } catch {
        // Nothing was mounted; the error below says what failed.
      }
      if (image !== null) rmSync(image, { force: true });
      throw new SandboxError('start-failed', `could not create the ${this.kind} workspace: ${(error as Error).message}`);
    }
    const mountedImage = image;
    return {
      dir,
      quotaBytes,
      full: () => nearlyFull(dir, quotaBytes),
      release: () => {
        unmountUnder(dir);
        if (mountedImage !== null) rmSync(mountedImage, { force: true });
      },
    };
  }
}

class PlainVolumes implements WorkspaceVolumes {
  readonly kind = 'none' as const;

  create(dir: string, quotaBytes: number): WorkspaceVolume {
    mkdirSync(dir, { mode: 0o755 });
    return { dir, quotaBytes, full: () => Promise.resolve(false), release: () => undefined };
  }
}

async function nearlyFull(dir: string, quotaBytes: number): Promise<boolean> {
  const stats = await statfs(dir);
  return stats.bavail * stats.bsize < Math.max(FULL_SLACK_BYTES, quotaBytes / 100);
}

/**
 * Unmounts every file system mounted at or under `dir` (deepest first), e.g. the volume a crashed run left
 * behind. A volume still busy is detached lazily: it disappears from the tree at once and is freed when its
 * last user goes.
 */
export function unmountUnder(dir: string): void {
  const mounts = mountPoints().filter((point) => point === dir || point.startsWith(`${dir}/`));
  for (const point of mounts.sort((a, b) => b.length - a.length)) {
    try {
      run('umount', [point]);
    } catch {
      run('umount', ['-l', point]);
    }
  }
}

function mountPoints(): string[] {
  let text: string;
  try {
    text = readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    return [];
  }
  // Field 5 is the mount point, with space, tab, newline and backslash written as octal escapes.
  return text
    .split('\n')
    .map((line) => line.split(' ')[4])
    .filter((field): field is string => field !== undefined)
    .map((field) => field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8))));
}

/**
 * Removes a directory tree whatever the benchmark did to its permissions: a directory without write or search
 * permission (chmod 500, 000) is made searchable and writable again first, so a runner without
 * CAP_DAC_OVERRIDE can delete it. Permissions are restored before anything is deleted (a failed recursive rm
 * leaves deletions of its own still running). Symbolic links are removed, never followed.
 */
export async function removeTree(dir: string): Promise<void> {
  await restorePermissions(dir);
  await rm(dir, { recursive: true, force: true });
}

async function restorePermissions(dir: string): Promise<void> {
  const stat = await lstat(dir).catch(nullWhenMissing);
  if (stat === null || !stat.isDirectory()) return;
  if ((stat.mode & 0o700) !== 0o700) await chmod(dir, (stat.mode & 0o7777) | 0o700);
  const entries = await readdir(dir, { withFileTypes: true }).catch(nullWhenMissing);
  for (const entry of entries ?? []) {
    if (entry.isDirectory()) await restorePermissions(join(dir, entry.name));
  }
}

function nullWhenMissing(error: unknown): null {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
  throw error;
}

/** mount, umount and mkfs.ext4 take milliseconds; they run synchronously so no job can see a half-made workspace. */
function run(command: string, args: string[]): void {
  const executable = resolveExecutable(command);
  if (executable === null) throw new SandboxError('misconfigured', `${command} is not installed`);
  try {
    execFileSync(executable, args, { timeout: MOUNT_TIMEOUT_MS, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' } });
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim();
    throw new SandboxError('start-failed', `${command} ${args.join(' ')}: ${stderr || (error as Error).message}`);
  }
}
