import { bwrapArgv, bwrapEnvArgs, systemMountArgs } from './bwrap-sandbox';

describe('bwrapArgv', () => {
  const argv = bwrapArgv({
    bwrap: '/usr/bin/bwrap',
    systemMounts: ['--ro-bind', '/usr', '/usr'],
    command: 'python3 bench.py',
    workspace: '/srv/runner/jobs/j1',
    readOnlyPaths: [{ host: '/srv/runner/heldout/j1', sandbox: '/srv/runner/heldout/j1' }],
    tmpBytes: 1024,
    shmBytes: 512,
  });

  function after(flag: string): string[] {
    const at = argv.indexOf(flag);
    return argv.slice(at + 1, at + 3);
  }

  it('unshares every namespace, drops capabilities and dies with the runner', () => {
    expect(argv[0]).toBe('/usr/bin/bwrap');
    expect(argv).toEqual(expect.arrayContaining(['--unshare-all', '--unshare-user', '--disable-userns', '--die-with-parent', '--new-session']));
    expect(after('--cap-drop')[0]).toBe('ALL');
  });

  it('binds the workspace read-write and the data read-only at their host paths, with a sized private /tmp', () => {
    expect(after('--bind')).toEqual(['/srv/runner/jobs/j1', '/srv/runner/jobs/j1']);
    expect(argv.slice(argv.lastIndexOf('--ro-bind') + 1).slice(0, 2)).toEqual(['/srv/runner/heldout/j1', '/srv/runner/heldout/j1']);
    expect(argv.slice(argv.lastIndexOf('--size'), argv.lastIndexOf('--size') + 4)).toEqual(['--size', '1024', '--tmpfs', '/tmp']);
    expect(after('--chdir')[0]).toBe('/srv/runner/jobs/j1');
  });

  it('sizes every tmpfs: /dev/shm gets its own, and /dev itself is read-only once its nodes are in', () => {
    const dev = argv.indexOf('--dev');
    expect(argv.slice(dev, dev + 8)).toEqual(['--dev', '/dev', '--size', '512', '--tmpfs', '/dev/shm', '--remount-ro', '/dev']);
    const tmpfs = argv.flatMap((arg, i) => (arg === '--tmpfs' ? [argv[i + 1]] : []));
    expect(tmpfs).toEqual(['/dev/shm', '/tmp']);
    for (const [i, arg] of argv.entries()) if (arg === '--tmpfs') expect(argv[i - 2]).toBe('--size');
  });

  it('ends with the command under /bin/sh -c and reports status on fd 3', () => {
    expect(argv.slice(-4)).toEqual(['--', '/bin/sh', '-c', 'python3 bench.py']);
    expect(after('--json-status-fd')[0]).toBe('3');
  });

  it('puts no environment on the command line: it comes through fd 4', () => {
    expect(argv).not.toContain('--setenv');
    expect(after('--args')[0]).toBe('4');
  });
});

describe('bwrapArgv with GPUs', () => {
  const input = {
    bwrap: '/usr/bin/bwrap',
    systemMounts: ['--ro-bind', '/usr', '/usr'],
    command: 'nvidia-smi',
    workspace: '/srv/runner/jobs/j1',
    readOnlyPaths: [],
    tmpBytes: 1024,
    shmBytes: 512,
  };
  const node = (name: string) => ({ host: `/dev/${name}`, sandbox: `/dev/${name}` });

  it('is byte-identical to no GPU at all when no device is selected (SANDBOX_GPUS=none)', () => {
    expect(bwrapArgv({ ...input, devices: [] })).toEqual(bwrapArgv(input));
    expect(bwrapArgv(input)).not.toContain('--dev-bind');
  });

  it('dev-binds every selected node into the private /dev, after it is made and before it turns read-only', () => {
    const devices = ['nvidiactl', 'nvidia-uvm', 'nvidia-uvm-tools', 'nvidia0', 'nvidia1'].map(node);
    const argv = bwrapArgv({ ...input, devices });
    const dev = argv.indexOf('--dev');
    expect(argv.slice(dev, dev + 2 + 15 + 6)).toEqual([
      '--dev', '/dev',
      '--dev-bind', '/dev/nvidiactl', '/dev/nvidiactl',
      '--dev-bind', '/dev/nvidia-uvm', '/dev/nvidia-uvm',
      '--dev-bind', '/dev/nvidia-uvm-tools', '/dev/nvidia-uvm-tools',
      '--dev-bind', '/dev/nvidia0', '/dev/nvidia0',
      '--dev-bind', '/dev/nvidia1', '/dev/nvidia1',
      '--size', '512', '--tmpfs', '/dev/shm', '--remount-ro', '/dev',
    ]);
    // Everything else is as without GPUs: the same arguments once the binds are taken out.
    expect(argv.filter((_, i) => i < dev + 2 || i >= dev + 2 + 15)).toEqual(bwrapArgv(input));
  });

  it('binds a node of another device root (a test root, a container with the host /dev elsewhere) at its /dev path', () => {
    const argv = bwrapArgv({ ...input, devices: [{ host: '/host/dev/nvidia3', sandbox: '/dev/nvidia3' }] });
    expect(argv.slice(argv.indexOf('--dev-bind'), argv.indexOf('--dev-bind') + 3)).toEqual(['--dev-bind', '/host/dev/nvidia3', '/dev/nvidia3']);
  });
});

describe('bwrapEnvArgs', () => {
  it('clears the environment then sets each variable, NUL-separated', () => {
    const expected = ['--clearenv', '--setenv', 'A', '1', '--setenv', 'TOKEN', 'with space\nand newline', ''].join('\0');
    expect(bwrapEnvArgs({ A: '1', TOKEN: 'with space\nand newline' }).toString()).toBe(expected);
  });
});

describe('systemMountArgs', () => {
  it('mounts /usr read-only and never the host home, /work or /var', () => {
    const args = systemMountArgs();
    expect(args.slice(0, 3)).toEqual(['--ro-bind', '/usr', '/usr']);
    for (const forbidden of ['/root', '/home', '/work', '/var', '/etc']) expect(args).not.toContain(forbidden);
  });
});
