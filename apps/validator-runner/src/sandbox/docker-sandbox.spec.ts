import { dockerEnvFile, dockerRunArgv } from './docker-sandbox';
import { SandboxError } from './sandbox.port';

describe('dockerRunArgv', () => {
  it('builds a locked-down docker run with the limits, the mounts at their host paths and the env file', () => {
    const argv = dockerRunArgv({
      image: 'rcs/bench:1',
      name: 'rcs-sandbox-abc',
      user: '1000:1000',
      command: 'python3 bench.py',
      workspace: '/srv/jobs/j1',
      readOnlyPaths: [{ host: '/srv/heldout/j1', sandbox: '/data' }],
      envFile: '/tmp/env-x/env',
      limits: { memoryBytes: 1073741824, pids: 128, cpus: 1.5, outputBytes: 4096, fileBytes: 2048, tmpBytes: 4096, shmBytes: 1024 },
    });
    expect(argv).toEqual([
      'docker', 'run', '--rm', '--name', 'rcs-sandbox-abc', '--init',
      '--network', 'none', '--read-only', '--cap-drop', 'ALL', '--security-opt', 'no-new-privileges',
      '--pids-limit', '128', '--memory', '1073741824', '--memory-swap', '1073741824', '--cpus', '1.5',
      '--ulimit', 'core=0', '--ulimit', 'fsize=2048', '--user', '1000:1000',
      '--tmpfs', '/tmp:rw,exec,nosuid,nodev,size=4096', '--shm-size', '1024',
      '--mount', 'type=bind,src=/srv/jobs/j1,dst=/srv/jobs/j1',
      '--mount', 'type=bind,src=/srv/heldout/j1,dst=/data,readonly',
      '--workdir', '/srv/jobs/j1', '--env-file', '/tmp/env-x/env',
      'rcs/bench:1', '/bin/sh', '-c', 'python3 bench.py',
    ]);
  });

  it('leaves the file size unlimited when no limit is given, but always sizes /tmp and /dev/shm', () => {
    const argv = dockerRunArgv({
      image: 'i',
      name: 'n',
      user: '0:0',
      command: 'true',
      workspace: '/w',
      readOnlyPaths: [],
      envFile: '/e',
      limits: { memoryBytes: 1, pids: 1, cpus: 1, outputBytes: 1 },
    });
    expect(argv.filter((arg) => arg.startsWith('fsize='))).toEqual([]);
    expect(argv).toContain(`/tmp:rw,exec,nosuid,nodev,size=${1024 * 1024 * 1024}`);
    expect(argv[argv.indexOf('--shm-size') + 1]).toBe(String(256 * 1024 * 1024));
  });
});

describe('dockerRunArgv with GPUs', () => {
  const input = {
    image: 'rcs/bench:1',
    name: 'rcs-sandbox-abc',
    user: '1000:1000',
    command: 'nvidia-smi',
    workspace: '/srv/jobs/j1',
    readOnlyPaths: [],
    envFile: '/tmp/env-x/env',
    limits: { memoryBytes: 1073741824, pids: 128, cpus: 2, outputBytes: 4096 },
  };
  const gpusOf = (argv: string[]) => argv.slice(argv.indexOf('--cpus') + 2, argv.indexOf('--ulimit'));

  it('is byte-identical to no GPU at all for SANDBOX_GPUS=none', () => {
    expect(dockerRunArgv({ ...input, gpus: { kind: 'none' } })).toEqual(dockerRunArgv(input));
    expect(dockerRunArgv(input)).not.toContain('--gpus');
  });

  it('passes every GPU with --gpus all', () => {
    const argv = dockerRunArgv({ ...input, gpus: { kind: 'all' } });
    expect(gpusOf(argv)).toEqual(['--gpus', 'all']);
    expect(argv.filter((arg) => arg !== '--gpus' && arg !== 'all')).toEqual(dockerRunArgv(input));
  });

  it('passes the selected devices quoted, so docker does not split the list at its comma', () => {
    expect(gpusOf(dockerRunArgv({ ...input, gpus: { kind: 'indices', indices: [0, 1] } }))).toEqual(['--gpus', '"device=0,1"']);
    expect(gpusOf(dockerRunArgv({ ...input, gpus: { kind: 'indices', indices: [3] } }))).toEqual(['--gpus', '"device=3"']);
  });
});

describe('dockerEnvFile', () => {
  it('writes one NAME=value line per variable, values literal', () => {
    expect(dockerEnvFile({ A: '1', TOKEN: 'a b=c "d"' })).toBe('A=1\nTOKEN=a b=c "d"\n');
  });

  it('refuses a value with a line break', () => {
    expect(() => dockerEnvFile({ KEY: 'line1\nline2' })).toThrow(SandboxError);
  });
});
