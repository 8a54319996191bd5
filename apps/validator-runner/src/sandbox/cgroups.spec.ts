import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testTempDir } from '@rcs/testing';
import { createRunCgroup, probeCgroups } from './cgroups';

const limits = { memoryBytes: 268435456, pids: 32, cpus: 1.5, outputBytes: 1024 };

describe('cgroups on a directory laid out like cgroupfs', () => {
  let root: string;

  testTempDir('rcs-cgroupfs-', (made) => (root = made));

  function selfCgroup(text: string): string {
    const file = join(root, 'self-cgroup');
    writeFileSync(file, text);
    return file;
  }

  it('v1: finds each controller under its own group, including a co-mounted cpu,cpuacct', () => {
    mkdirSync(join(root, 'pids'));
    mkdirSync(join(root, 'memory', 'process_api', 'abc'), { recursive: true });
    mkdirSync(join(root, 'cpu,cpuacct'));
    const layout = probeCgroups(root, selfCgroup('8:pids:/\n4:memory:/process_api/abc\n2:cpu,cpuacct:/\n1:name=systemd:/\n0::/\n'));
    expect(layout).toEqual({
      version: 1,
      parents: { pids: join(root, 'pids'), memory: join(root, 'memory', 'process_api', 'abc'), cpu: join(root, 'cpu,cpuacct') },
    });
  });

  it('v1: writes each limit into its own controller group and lists every cgroup.procs to join', () => {
    const parents = { pids: join(root, 'pids'), memory: join(root, 'memory'), cpu: join(root, 'cpu') };
    Object.values(parents).forEach((dir) => mkdirSync(dir));
    const run = createRunCgroup({ version: 1, parents }, limits);
    expect(run.procsFiles).toHaveLength(3);
    const [pidsDir, memoryDir, cpuDir] = run.procsFiles.map((file) => file.replace(/\/cgroup\.procs$/, ''));
    expect(readFileSync(join(pidsDir, 'pids.max'), 'utf8')).toBe('32');
    expect(readFileSync(join(memoryDir, 'memory.limit_in_bytes'), 'utf8')).toBe('268435456');
    expect(readFileSync(join(cpuDir, 'cpu.cfs_quota_us'), 'utf8')).toBe('150000');
    expect(readFileSync(join(cpuDir, 'cpu.cfs_period_us'), 'utf8')).toBe('100000');
  });

  it('v1: skips a controller whose group cannot be created', () => {
    mkdirSync(join(root, 'pids'));
    const layout = probeCgroups(root, selfCgroup('8:pids:/\n4:memory:/gone\n'));
    expect(layout).toEqual({ version: 1, parents: { pids: join(root, 'pids') } });
  });

  it('v2: uses the delegated group when its subtree has the controllers, with one group for all limits', () => {
    writeFileSync(join(root, 'cgroup.controllers'), 'cpu memory pids');
    const delegated = join(root, 'user.slice', 'runner.service');
    mkdirSync(delegated, { recursive: true });
    writeFileSync(join(delegated, 'cgroup.subtree_control'), 'cpu memory pids\n');
    const layout = probeCgroups(root, selfCgroup('0::/user.slice/runner.service\n'));
    expect(layout).toEqual({ version: 2, parents: { pids: delegated, memory: delegated, cpu: delegated } });
    const run = createRunCgroup(layout, limits);
    expect(run.procsFiles).toHaveLength(1);
    const dir = run.procsFiles[0].replace(/\/cgroup\.procs$/, '');
    expect(readFileSync(join(dir, 'pids.max'), 'utf8')).toBe('32');
    expect(readFileSync(join(dir, 'memory.max'), 'utf8')).toBe('268435456');
    expect(readFileSync(join(dir, 'cpu.max'), 'utf8')).toBe('150000 100000');
  });

  it('v2: offers nothing when its own group is not writable', () => {
    writeFileSync(join(root, 'cgroup.controllers'), 'cpu memory pids');
    expect(probeCgroups(root, selfCgroup('0::/not/here\n'))).toEqual({ version: 2, parents: {} });
  });
});
