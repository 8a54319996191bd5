/**
 * The docker sandbox against a real Docker engine: the escape tests of the bwrap sandbox, run in the
 * sibling containers validators use. Not part of `npm test` (it needs an engine and a benchmark image):
 * `npx nx run validator-runner:test-docker` builds the image (deploy/docker/local-base.sh sandbox)
 * and runs this file; CI's deploy step calls it.
 */
import { execFileSync } from 'node:child_process';
import { networkInterfaces } from 'node:os';
import { createSandbox } from '../src/sandbox/create-sandbox';
import { ALLOCATE_1_GIB, forkAndSpin, limits, sandboxEscapeCases, WRITE_2_MIB } from './support/sandbox-escape-cases';

/** The benchmark image deploy/docker/local-base.sh builds: Debian's python3 and Node. */
const IMAGE = 'rcs-local/sandbox:2';
// Starting a container takes seconds on a loaded machine; the deadline tests set their own.
const RUN_TIMEOUT_MS = 60_000;

jest.setTimeout(120_000);

function docker(...args: string[]): string {
  return execFileSync('docker', args, { encoding: 'utf8' }).trim();
}

function sandboxContainers(): string[] {
  return docker('ps', '-a', '--filter', 'name=rcs-sandbox-', '--format', '{{.Names}}').split('\n').filter(Boolean);
}

/** The host's address on the docker bridge (else any of its own): what a container with a network would reach it by. */
function bridgeAddress(): string {
  const addresses = Object.entries(networkInterfaces()).flatMap(([name, list]) => (list ?? []).filter((a) => a.family === 'IPv4' && !a.internal).map((a) => ({ name, address: a.address })));
  const bridge = (addresses.find((a) => a.name === 'docker0') ?? addresses[0])?.address ?? '';
  expect(bridge).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
  return bridge;
}

describe('docker sandbox (real Docker engine, sibling containers)', () => {
  const hostname = execFileSync('hostname', { encoding: 'utf8' }).trim();
  let containersBefore: string[];
  const box = sandboxEscapeCases({
    create: () => {
      // No engine or no image is a failure here, never a skip: this file runs only where both are expected.
      expect(docker('version', '-f', '{{.Server.Version}}')).toMatch(/^\d+\./);
      expect(docker('image', 'inspect', '-f', '{{.Id}}', IMAGE)).toMatch(/^sha256:/);
      return createSandbox({ kind: 'docker', allowUnsafeNone: false, dockerImage: IMAGE, logger: { info: () => undefined, warn: () => undefined } });
    },
    tmpPrefix: 'rcs-sandbox-docker-',
    runTimeoutMs: RUN_TIMEOUT_MS,
    expectNothingLeft: () => expect(sandboxContainers()).toEqual(containersBefore),
    network: {
      title: 'has no network: Redis and a server on the host loopback refuse, an outside address is unreachable, only lo exists',
      // On every address, so the docker bridge's gateway address would reach it too if the container had a route.
      listenHost: '0.0.0.0',
      serverAddresses: () => ['127.0.0.1', bridgeAddress()],
      outside: ['192.0.2.1:443'],
    },
    readOnlyFiles: { title: 'cannot write outside the workspace: the root file system is read-only, the host /tmp and the repository are not there', rootReadOnly: true },
    hostFiles: {
      title: "cannot read the host's home, the host's /etc or the Docker socket",
      probes: [
        { command: `grep -c ${hostname} /etc/hostname`, fallback: 'other-etc' },
        { command: 'ls /var/run/docker.sock', fallback: 'no-socket' },
      ],
    },
    environment: { title: 'sees exactly the environment it is given (and what docker adds), nothing of the host, and no value shows on a host command line', added: ['HOSTNAME'] },
    // The deadline leaves room for the container to start on a loaded machine.
    deadline: { title: 'kills a benchmark that outlives its deadline, with every child it started, daemons included, and removes its container', timeoutMs: 8000 },
  });
  const { run } = box;

  beforeAll(() => {
    containersBefore = sandboxContainers();
  });

  it('says the engine enforces memory, processes and CPU', () => {
    expect(box.sandbox.kind).toBe('docker');
    expect(box.sandbox.enforcement).toMatchObject({ memory: 'docker', pids: 'docker', cpus: 'docker' });
  });

  it("runs python3 and node as the runner's uid, in a container of its own", async () => {
    const result = await run('python3 -c "import sys; print(\'py\', sys.version_info[0])"; node -e "console.log(\'node\', process.versions.node.split(\'.\')[0])"; id -u; hostname');
    expect(result).toMatchObject({ exitCode: 0, timedOut: false });
    const [py, node, uid, containerHostname] = result.output.trim().split('\n');
    expect(py).toBe('py 3');
    expect(node).toMatch(/^node \d+$/);
    expect(Number(uid)).toBe(process.getuid?.());
    expect(containerHostname).not.toBe(hostname);
  });

  it('caps memory, file size and the private /tmp', async () => {
    const result = await run(
      [ALLOCATE_1_GIB, WRITE_2_MIB, 'head -c 3145728 /dev/zero > /tmp/fill || echo tmp-full'].join('; '),
      { limits: { ...limits, memoryBytes: 256 * 1024 * 1024, fileBytes: 16 * 1024 * 1024, tmpBytes: 2 * 1024 * 1024 } },
    );
    expect(result.output).not.toMatch(/allocated/);
    expect(result.output).toMatch(/memory-refused/);
    expect(result.output).not.toMatch(/file-refused/);
    expect(result.output).toMatch(/No space left on device/);
    expect(result.output).toMatch(/tmp-full/);
    const capped = await run(WRITE_2_MIB, { limits: { ...limits, fileBytes: 1024 * 1024 } });
    expect(capped.output).toMatch(/File too large/);
    expect(capped.output).toMatch(/file-refused/);
  });

  it('caps the number of processes and the CPU share', async () => {
    const { forked, cpu } = await forkAndSpin(box, 2);
    expect(forked).toBeLessThan(16);
    // Two seconds of busy wall time at a quarter of a CPU: about half a second of CPU, never two.
    expect(cpu).toBeLessThan(1.2);
  });

  it('rejects with a start failure, not a benchmark result, when the engine cannot create the container', async () => {
    // Docker refuses a memory limit below 6 MB when it creates the container (exit 125).
    const attempt = run('echo never', { limits: { ...limits, memoryBytes: 1024 * 1024 } });
    await expect(attempt).rejects.toMatchObject({ code: 'start-failed', message: expect.stringMatching(/^docker could not start the sandbox container: \S/) });
  });

  it('leaves no sandbox container behind', () => {
    expect(sandboxContainers()).toEqual(containersBefore);
  });
});
