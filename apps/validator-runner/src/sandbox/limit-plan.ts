import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';
import { CgroupLayout, createRunCgroup } from './cgroups';
import { rlimitOptions } from './rlimits';
import { SANDBOX_DEFAULT_PATH, SandboxEnforcement, SandboxError, SandboxLimits, SandboxLogger } from './sandbox.port';

/** What a launcher's limits enforce: everything but the workspace's disk quota. */
export type ProcessEnforcement = Omit<SandboxEnforcement, 'disk'>;

/** How a host-side launcher (bwrap, or the bare shell) is put under the run's limits. */
export interface LimitPlan {
  readonly enforcement: ProcessEnforcement;
  /**
   * Prefixes `inner` so the launcher drops every inherited descriptor above `keepFds`, joins its cgroups and
   * takes its rlimits, then execs it.
   */
  launch(inner: string[], limits: SandboxLimits, keepFds: number): LimitedLaunch;
}

export interface LimitedLaunch {
  argv: string[];
  /** Frees the run's cgroups; call once every process of the run has exited. */
  release(): Promise<void>;
}

export interface LimitPlanOptions {
  bash: string;
  prlimit: string;
  cgroups: CgroupLayout;
  /** RLIMIT_NPROC as the pids limit when no pids cgroup exists (only meaningful inside a user namespace). */
  nproc: boolean;
}

/**
 * bash, not sh: dash cannot name a descriptor above 9. The runner may have inherited descriptors without
 * close-on-exec (a supervisor's pipes, a directory) and neither Node nor bwrap closes them; an open directory
 * inside the sandbox would lead straight out of it. Exits 125 without running anything if a cgroup refuses it.
 */
const LAUNCHER_SCRIPT = [
  'keep=$1; shift',
  'for fd in /proc/$$/fd/*; do n=${fd##*/}; if [ "$n" -gt "$keep" ]; then eval "exec $n>&-"; fi; done',
  'while [ "$1" != -- ]; do echo $$ > "$1" || { echo "sandbox: cannot join cgroup $1" >&2; exit 125; }; shift; done',
  // bash's exec exports a SHLVL of its own; the launched command must see only the environment it was given.
  'shift; exec /usr/bin/env -u SHLVL "$@"',
].join('\n');

export function launcherArgv(bash: string, keepFds: number, procsFiles: string[], argv: string[]): string[] {
  return [bash, '-c', LAUNCHER_SCRIPT, 'rcs-sandbox-launcher', String(keepFds), ...procsFiles, '--', ...argv];
}

export function createLimitPlan(options: LimitPlanOptions): LimitPlan {
  const { parents } = options.cgroups;
  const nproc = options.nproc && parents.pids === undefined;
  const enforcement: ProcessEnforcement = {
    memory: parents.memory ? 'cgroup' : 'rlimit-data',
    pids: parents.pids ? 'cgroup' : nproc ? 'rlimit-nproc' : 'none',
    cpus: parents.cpu ? 'cgroup' : 'none',
  };
  const usesCgroups = Object.keys(parents).length > 0;
  return {
    enforcement,
    launch(inner, limits, keepFds) {
      const limited = [options.prlimit, ...rlimitOptions(limits, { nproc }), '--', ...inner];
      if (!usesCgroups) return { argv: launcherArgv(options.bash, keepFds, [], limited), release: () => Promise.resolve() };
      const cgroup = createCgroupOrFail(options.cgroups, limits);
      return { argv: launcherArgv(options.bash, keepFds, cgroup.procsFiles, limited), release: () => cgroup.remove() };
    },
  };
}

/** Frees a run's cgroups; a leftover empty group is worth a warning, not a failed job. */
export async function releaseLaunch(launch: LimitedLaunch, logger: SandboxLogger): Promise<void> {
  try {
    await launch.release();
  } catch (error) {
    logger.warn({ err: error }, 'sandbox cgroup cleanup failed');
  }
}

/** Absolute path of an executable on the sandbox's default PATH, or null when it is not installed. */
export function resolveExecutable(name: string): string | null {
  for (const dir of SANDBOX_DEFAULT_PATH.split(':')) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this directory; try the next one.
    }
  }
  return null;
}

function createCgroupOrFail(layout: CgroupLayout, limits: SandboxLimits): ReturnType<typeof createRunCgroup> {
  try {
    return createRunCgroup(layout, limits);
  } catch (error) {
    throw new SandboxError('start-failed', `could not create the run's cgroups: ${(error as Error).message}`);
  }
}
