import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suiteTempDir } from '@rcs/testing';
import { createLimitPlan, launcherArgv, resolveExecutable } from './limit-plan';

const limits = { memoryBytes: 1048576, pids: 8, cpus: 1, outputBytes: 1024 };
const bash = resolveExecutable('bash') ?? 'bash';

function runLauncher(argv: string[], extraFds: number): ReturnType<typeof spawnSync> {
  return spawnSync(argv[0], argv.slice(1), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe', ...Array<'pipe'>(extraFds).fill('pipe')] });
}

describe('createLimitPlan', () => {
  it('without cgroups: rlimits only, and says pids and cpus are not enforced unless RLIMIT_NPROC applies', () => {
    const plan = createLimitPlan({ bash, prlimit: '/usr/bin/prlimit', cgroups: { version: 1, parents: {} }, nproc: false });
    expect(plan.enforcement).toEqual({ memory: 'rlimit-data', pids: 'none', cpus: 'none' });
    expect(plan.launch(['/bin/true'], limits, 2).argv.slice(-5)).toEqual(['/usr/bin/prlimit', '--data=1048576', '--core=0', '--', '/bin/true']);
    const withNproc = createLimitPlan({ bash, prlimit: '/usr/bin/prlimit', cgroups: { version: 1, parents: {} }, nproc: true });
    expect(withNproc.enforcement.pids).toBe('rlimit-nproc');
    expect(withNproc.launch(['/bin/true'], limits, 2).argv).toContain('--nproc=8');
  });

  it('with cgroups: reports them, and drops RLIMIT_NPROC in favour of the pids group', () => {
    const plan = createLimitPlan({ bash, prlimit: '/usr/bin/prlimit', cgroups: { version: 2, parents: { pids: '/cg', memory: '/cg', cpu: '/cg' } }, nproc: true });
    expect(plan.enforcement).toEqual({ memory: 'cgroup', pids: 'cgroup', cpus: 'cgroup' });
  });
});

describe('launcherArgv', () => {
  let dir: string;

  suiteTempDir('rcs-launcher-', (made) => (dir = made));

  it('closes every inherited descriptor above the ones it keeps', () => {
    const listFds = ['/bin/sh', '-c', 'ls /proc/$$/fd'];
    const open = (keep: number): string[] => String(runLauncher(launcherArgv(bash, keep, [], listFds), 3).stdout).trim().split('\n').sort();
    expect(open(2)).toEqual(['0', '1', '2']);
    expect(open(4)).toEqual(['0', '1', '2', '3', '4']);
  });

  it('writes its own pid into every procs file, then execs the command in the same process', () => {
    const files = [join(dir, 'a.procs'), join(dir, 'b.procs')];
    const result = runLauncher(launcherArgv(bash, 2, files, ['/bin/sh', '-c', 'echo $$']), 0);
    const pid = String(result.stdout).trim();
    expect(pid).toMatch(/^\d+$/);
    for (const file of files) expect(readFileSync(file, 'utf8').trim()).toBe(pid);
  });

  it('exits 125 without running the command when a group cannot be joined', () => {
    const result = runLauncher(launcherArgv(bash, 2, [join(dir, 'missing', 'cgroup.procs')], ['/bin/sh', '-c', 'echo ran']), 0);
    expect(result.status).toBe(125);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/cannot join cgroup/);
  });
});

describe('resolveExecutable', () => {
  it('finds an installed tool on the default PATH and returns null for a missing one', () => {
    expect(resolveExecutable('sh')).toMatch(/\/sh$/);
    expect(resolveExecutable('rcs-no-such-tool')).toBeNull();
  });
});
