import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { SandboxLimits } from './sandbox.port';

export type CgroupController = 'pids' | 'memory' | 'cpu';

const CONTROLLERS: readonly CgroupController[] = ['pids', 'memory', 'cpu'];
const CPU_PERIOD_US = 100_000;
const REMOVE_PATIENCE_MS = 2000;
const REMOVE_POLL_MS = 5;

/** Where this process may create child cgroups, per controller, in the hierarchy version the host uses. */
export interface CgroupLayout {
  version: 1 | 2;
  parents: Partial<Record<CgroupController, string>>;
}

/** One run's cgroups: the launcher writes its pid into every `procsFiles` entry before it execs the sandbox. */
export interface RunCgroup {
  procsFiles: string[];
  /** Removes the groups once the run's processes have all exited. */
  remove(): Promise<void>;
}

/**
 * Finds the controllers whose hierarchy lets this process create a child group under its own (root in a
 * container with a writable cgroupfs, a delegated systemd unit). Probed by creating and removing one group.
 */
export function probeCgroups(root = '/sys/fs/cgroup', selfCgroupFile = '/proc/self/cgroup'): CgroupLayout {
  const memberships = parseSelfCgroup(readFileOrEmpty(selfCgroupFile));
  if (existsSync(join(root, 'cgroup.controllers'))) return probeV2(root, memberships.get('') ?? '/');
  const parents: CgroupLayout['parents'] = {};
  for (const controller of CONTROLLERS) {
    const path = memberships.get(controller);
    const mount = v1Mount(root, controller);
    const parent = path === undefined || mount === null ? null : resolve(mount, `.${path}`);
    if (parent !== null && canCreateChild(parent)) parents[controller] = parent;
  }
  return { version: 1, parents };
}

/** Creates this run's groups with the limits written in; throws when the host refuses (the run must not start unlimited). */
export function createRunCgroup(layout: CgroupLayout, limits: SandboxLimits): RunCgroup {
  const name = `rcs-sandbox-${process.pid}-${randomBytes(6).toString('hex')}`;
  const dirs = [...new Set(Object.values(layout.parents))].map((parent) => join(parent, name));
  const created: string[] = [];
  try {
    for (const dir of dirs) {
      mkdirSync(dir);
      created.push(dir);
    }
    for (const [controller, parent] of Object.entries(layout.parents) as [CgroupController, string][]) {
      writeLimits(layout.version, controller, join(parent, name), limits);
    }
  } catch (error) {
    for (const dir of created) rmdirSync(dir);
    throw error;
  }
  return {
    procsFiles: dirs.map((dir) => join(dir, 'cgroup.procs')),
    remove: async () => {
      const failures: unknown[] = [];
      for (const dir of dirs) await removeGroup(layout.version, dir).catch((error: unknown) => failures.push(error));
      if (failures.length > 0) throw failures[0];
    },
  };
}

/**
 * Membership is the one complete list of a run's processes: whatever escaped the process group (possible with
 * the `none` driver) is killed here. A dying task leaves its cgroup a moment after its parent has reaped it
 * (the unlink follows its last context switch), so a group whose processes have all exited can refuse rmdir
 * with EBUSY for a short while.
 */
async function removeGroup(version: 1 | 2, dir: string): Promise<void> {
  if (version === 2) writeIfPresent(join(dir, 'cgroup.kill'), '1');
  const giveUpAt = Date.now() + REMOVE_PATIENCE_MS;
  for (;;) {
    try {
      rmdirSync(dir);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EBUSY' || Date.now() > giveUpAt) throw error;
      killMembers(dir);
      await delay(REMOVE_POLL_MS);
    }
  }
}

function writeLimits(version: 1 | 2, controller: CgroupController, dir: string, limits: SandboxLimits): void {
  const quota = Math.max(1000, Math.round(limits.cpus * CPU_PERIOD_US));
  switch (controller) {
    case 'pids':
      writeFileSync(join(dir, 'pids.max'), String(limits.pids));
      return;
    case 'memory':
      if (version === 2) {
        writeFileSync(join(dir, 'memory.max'), String(limits.memoryBytes));
        writeIfPresent(join(dir, 'memory.swap.max'), '0');
      } else {
        writeFileSync(join(dir, 'memory.limit_in_bytes'), String(limits.memoryBytes));
        writeIfPresent(join(dir, 'memory.memsw.limit_in_bytes'), String(limits.memoryBytes));
      }
      return;
    case 'cpu':
      if (version === 2) {
        writeFileSync(join(dir, 'cpu.max'), `${quota} ${CPU_PERIOD_US}`);
      } else {
        writeFileSync(join(dir, 'cpu.cfs_period_us'), String(CPU_PERIOD_US));
        writeFileSync(join(dir, 'cpu.cfs_quota_us'), String(quota));
      }
      return;
  }
}

function killMembers(dir: string): void {
  for (const pid of readFileOrEmpty(join(dir, 'cgroup.procs')).split('\n').filter(Boolean)) {
    try {
      process.kill(Number(pid), 'SIGKILL');
    } catch {
      // Already gone between the read and the kill.
    }
  }
}

function probeV2(root: string, path: string): CgroupLayout {
  const parent = resolve(root, `.${path}`);
  const enabled = new Set(readFileOrEmpty(join(parent, 'cgroup.subtree_control')).split(/\s+/));
  const parents: CgroupLayout['parents'] = {};
  if (!canCreateChild(parent)) return { version: 2, parents };
  for (const controller of CONTROLLERS) {
    if (enabled.has(controller) || tryWrite(join(parent, 'cgroup.subtree_control'), `+${controller}`)) parents[controller] = parent;
  }
  return { version: 2, parents };
}

/** `/proc/self/cgroup` lines `id:controllers:path`; the v2 line has no controllers and is keyed ''. */
function parseSelfCgroup(text: string): Map<string, string> {
  const memberships = new Map<string, string>();
  for (const line of text.split('\n')) {
    const match = /^\d+:([^:]*):(.+)$/.exec(line);
    if (!match) continue;
    for (const controller of match[1].split(',')) memberships.set(controller, match[2]);
  }
  return memberships;
}

/** v1 controllers are mounted at `<root>/<name>`, or at a co-mounted directory such as `cpu,cpuacct`. */
function v1Mount(root: string, controller: CgroupController): string | null {
  const candidates = controller === 'cpu' ? ['cpu', 'cpu,cpuacct', 'cpuacct,cpu'] : [controller];
  return candidates.map((name) => join(root, name)).find((dir) => existsSync(dir)) ?? null;
}

function canCreateChild(parent: string): boolean {
  const probe = join(parent, `rcs-sandbox-probe-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    mkdirSync(probe);
    rmdirSync(probe);
    return true;
  } catch {
    return false;
  }
}

function tryWrite(file: string, content: string): boolean {
  try {
    writeFileSync(file, content);
    return true;
  } catch {
    return false;
  }
}

/** Optional knobs (swap accounting, cgroup.kill) exist only on some kernels. */
function writeIfPresent(file: string, content: string): void {
  if (existsSync(file)) writeFileSync(file, content);
}

function readFileOrEmpty(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
