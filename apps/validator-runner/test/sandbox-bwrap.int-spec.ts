import { homedir } from 'node:os';
import { join } from 'node:path';
import { createSandbox } from '../src/sandbox/create-sandbox';
import { ALLOCATE_1_GIB, forkAndSpin, limits, sandboxEscapeCases, WRITE_2_MIB } from './support/sandbox-escape-cases';

describe('bwrap sandbox (real bubblewrap)', () => {
  const warnings: string[] = [];
  const box = sandboxEscapeCases({
    create: () => createSandbox({ kind: 'bwrap', allowUnsafeNone: false, logger: { info: () => undefined, warn: (_obj, msg) => warnings.push(msg) } }),
    tmpPrefix: 'rcs-sandbox-bwrap-',
    runTimeoutMs: 3000,
    network: {
      title: 'cannot reach the host network: Redis and a server on the host loopback refuse, only its own loopback exists',
      listenHost: '127.0.0.1',
      serverAddresses: () => ['127.0.0.1'],
      outside: [],
    },
    readOnlyFiles: { title: 'cannot write outside the workspace: /usr, the host /tmp and the repository stay untouched', rootReadOnly: false },
    hostFiles: { title: "cannot read the host's home", probes: [{ command: `ls ${homedir()}`, fallback: 'home-invisible' }] },
    environment: { title: 'sees exactly the environment it is given, nothing of the host, and no value shows on a host command line', added: [] },
    deadline: { title: 'kills a benchmark that outlives its deadline, with every child it started, daemons included', timeoutMs: 1000, maxDurationMs: 3000 },
  });
  const { run } = box;

  it('runs python3 and node, as an unprivileged user in its own hostname', async () => {
    const result = await run('python3 -c "import sys; print(\'py\', sys.version_info[0])"; node -e "console.log(\'node\', process.versions.node.split(\'.\')[0])"; id -u; hostname');
    expect(result).toMatchObject({ exitCode: 0, timedOut: false });
    expect(result.output).toMatch(/^py 3\nnode \d+\n65534\nsandbox\n$/);
  });

  it('does not hand the environment to the host-side launchers: LD_PRELOAD reaches only the sandboxed shell', async () => {
    const library = join(box.workspace, 'missing-evil.so');
    const result = await run('echo "preload=$LD_PRELOAD"', { env: { LD_PRELOAD: library } });
    expect(result).toMatchObject({ exitCode: 0, timedOut: false });
    expect(result.output).toContain(`preload=${library}`);
    // The dynamic loader complains once per process that loads with it: only the sandboxed /bin/sh did.
    expect(result.output.match(/cannot be preloaded/g)).toHaveLength(1);
  });

  it('rejects with a start failure, not a benchmark result, when bubblewrap cannot set the sandbox up', async () => {
    const attempt = run('echo never', { readOnlyPaths: [{ host: box.data, sandbox: '/proc/rcs-data' }] });
    await expect(attempt).rejects.toMatchObject({ code: 'start-failed', message: expect.stringMatching(/^bubblewrap could not run the command \(exit 1\): bwrap: /) });
  });

  it('caps memory and file size', async () => {
    const result = await run(`${ALLOCATE_1_GIB}; ${WRITE_2_MIB}`, { limits: { ...limits, memoryBytes: 256 * 1024 * 1024, fileBytes: 1024 * 1024 } });
    expect(result.output).not.toMatch(/allocated/);
    expect(result.output).toMatch(/memory-refused/);
    expect(result.output).toMatch(/File too large/);
    expect(result.output).toMatch(/file-refused/);
  });

  it('caps the number of processes and the CPU share as far as this host allows, and says which', async () => {
    const { forked, cpu } = await forkAndSpin(box, 1);
    const { enforcement } = box.sandbox;
    if (enforcement.pids === 'none') expect(forked).toBe(40);
    else expect(forked).toBeLessThan(16);
    if (enforcement.cpus === 'none') expect(cpu).toBeGreaterThan(0.6);
    else expect(cpu).toBeLessThan(0.6);
    expect(warnings).toEqual(Object.values(enforcement).includes('none') ? [expect.stringMatching(/cannot be enforced/)] : []);
  });
});
