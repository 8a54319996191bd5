/**
 * The docker sandbox against a real Docker engine: the escape tests of the bwrap sandbox, run in the
 * sibling containers validators use. Not part of `npm test` (it needs an engine and a benchmark image):
 * `npx nx run validator-runner:test-docker` builds the image (deploy/docker/local-base.sh sandbox)
 * and runs this file; CI's deploy step calls it.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect, Server } from 'node:net';
import { homedir, networkInterfaces, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createSandbox } from '../src/sandbox/create-sandbox';
import { Sandbox, SandboxLimits, SandboxRunRequest } from '../src/sandbox/sandbox.port';

/** The benchmark image deploy/docker/local-base.sh builds: Debian's python3 and Node. */
const IMAGE = 'rcs-local/sandbox:1';
const limits: SandboxLimits = { memoryBytes: 512 * 1024 * 1024, pids: 64, cpus: 1, outputBytes: 64 * 1024 };
const repoRoot = resolve(__dirname, '../../..');
// Starting a container takes seconds on a loaded machine; the deadline tests set their own.
const RUN_TIMEOUT_MS = 60_000;

jest.setTimeout(120_000);

function processesWith(marker: string): string[] {
  return execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(marker));
}

function docker(...args: string[]): string {
  return execFileSync('docker', args, { encoding: 'utf8' }).trim();
}

function connectFromHost(port: number, host = '127.0.0.1'): Promise<void> {
  return new Promise((done, fail) => {
    const socket = connect(port, host, () => {
      socket.destroy();
      done();
    });
    socket.on('error', fail);
  });
}

describe('docker sandbox (real Docker engine, sibling containers)', () => {
  const unique = randomBytes(6).toString('hex');
  let sandbox: Sandbox;
  let base: string;
  let workspace: string;
  let data: string;
  const hostFiles: string[] = [];
  let containersBefore: string[];

  function run(command: string, overrides: Partial<SandboxRunRequest> = {}): ReturnType<Sandbox['run']> {
    return sandbox.run({ command, workspace, env: {}, timeoutMs: RUN_TIMEOUT_MS, limits, ...overrides });
  }

  function hostFile(path: string, content: string): string {
    writeFileSync(path, content);
    hostFiles.push(path);
    return path;
  }

  function sandboxContainers(): string[] {
    return docker('ps', '-a', '--filter', 'name=rcs-sandbox-', '--format', '{{.Names}}').split('\n').filter(Boolean);
  }

  beforeAll(() => {
    // No engine or no image is a failure here, never a skip: this file runs only where both are expected.
    expect(docker('version', '-f', '{{.Server.Version}}')).toMatch(/^\d+\./);
    expect(docker('image', 'inspect', '-f', '{{.Id}}', IMAGE)).toMatch(/^sha256:/);
    sandbox = createSandbox({ kind: 'docker', allowUnsafeNone: false, dockerImage: IMAGE, logger: { info: () => undefined, warn: () => undefined } });
    base = mkdtempSync(join(tmpdir(), 'rcs-sandbox-docker-'));
    workspace = join(base, 'workspace');
    data = join(base, 'heldout');
    mkdirSync(workspace);
    mkdirSync(data);
    writeFileSync(join(data, 'rows.jsonl'), '{"x":1}\n');
    containersBefore = sandboxContainers();
  });

  afterAll(() => {
    rmSync(base, { recursive: true, force: true });
    for (const file of hostFiles) rmSync(file, { force: true });
  });

  it('says the engine enforces memory, processes and CPU', () => {
    expect(sandbox.kind).toBe('docker');
    expect(sandbox.enforcement).toMatchObject({ memory: 'docker', pids: 'docker', cpus: 'docker' });
  });

  it("runs python3 and node as the runner's uid, in a container of its own", async () => {
    const result = await run('python3 -c "import sys; print(\'py\', sys.version_info[0])"; node -e "console.log(\'node\', process.versions.node.split(\'.\')[0])"; id -u; hostname');
    expect(result).toMatchObject({ exitCode: 0, timedOut: false });
    const [py, node, uid, hostname] = result.output.trim().split('\n');
    expect(py).toBe('py 3');
    expect(node).toMatch(/^node \d+$/);
    expect(Number(uid)).toBe(process.getuid?.());
    expect(hostname).not.toBe(execFileSync('hostname', { encoding: 'utf8' }).trim());
  });

  it('has no network: Redis and a server on the host loopback refuse, an outside address is unreachable, only lo exists', async () => {
    const server: Server = createServer((socket) => socket.destroy());
    let connections = 0;
    server.on('connection', () => (connections += 1));
    // On every address, so the docker bridge's gateway address would reach it too if the container had a route.
    await new Promise<void>((done) => server.listen(0, '0.0.0.0', done));
    const port = (server.address() as { port: number }).port;
    // The host's address on the docker bridge (else any of its own): what a container with a network would reach it by.
    const addresses = Object.entries(networkInterfaces()).flatMap(([name, list]) => (list ?? []).filter((a) => a.family === 'IPv4' && !a.internal).map((a) => ({ name, address: a.address })));
    const bridge = (addresses.find((a) => a.name === 'docker0') ?? addresses[0])?.address ?? '';
    expect(bridge).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    try {
      await connectFromHost(6379);
      await connectFromHost(port, bridge);
      connections = 0;
      const probe = [
        'import socket, sys',
        'for target in sys.argv[1:]:',
        "    host, port = target.split(':')",
        '    try:',
        "        socket.create_connection((host, int(port)), timeout=2).close(); print('connected', target)",
        '    except OSError as e:',
        "        print('failed', target, e.errno)",
      ].join('\n');
      writeFileSync(join(workspace, 'net_probe.py'), probe);
      const result = await run(`python3 net_probe.py 127.0.0.1:6379 127.0.0.1:${port} ${bridge}:${port} 192.0.2.1:443; awk 'NR > 2 { print $1 }' /proc/net/dev`);
      expect(result.output).toMatch(/^failed 127\.0\.0\.1:6379 \d+\n/m);
      expect(result.output).toMatch(new RegExp(`^failed 127\\.0\\.0\\.1:${port} \\d+\\n`, 'm'));
      expect(result.output).toMatch(new RegExp(`^failed ${bridge.replace(/\./g, '\\.')}:${port} \\d+\\n`, 'm'));
      expect(result.output).toMatch(/^failed 192\.0\.2\.1:443 \d+\n/m);
      expect(result.output).not.toMatch(/connected/);
      expect(result.output.split('\n').filter((line) => line.endsWith(':'))).toEqual(['lo:']);
      expect(connections).toBe(0);
    } finally {
      await new Promise<void>((done) => server.close(() => done()));
    }
  });

  it('cannot write outside the workspace: the root file system is read-only, the host /tmp and the repository are not there', async () => {
    const tmpMarker = hostFile(join(base, `tmp-marker-${unique}`), 'original');
    const repoMarker = hostFile(join(repoRoot, 'apps', 'validator-runner', `.sandbox-marker-${unique}`), 'original');
    const result = await run(
      [
        `echo x > /usr/rcs-escape-${unique} && echo wrote-usr`,
        `echo x > /rcs-escape-${unique} && echo wrote-root`,
        `cat ${tmpMarker} || echo tmp-marker-invisible`,
        `echo tampered > ${tmpMarker}`,
        `echo tampered > ${repoMarker} || echo repo-write-failed`,
        `ls ${repoRoot} || echo repo-invisible`,
      ].join('; '),
    );
    expect(result.output).not.toMatch(/wrote-usr|wrote-root/);
    expect(result.output).toMatch(/Read-only file system/);
    expect(result.output).toMatch(/tmp-marker-invisible/);
    expect(result.output).toMatch(/repo-write-failed/);
    expect(result.output).toMatch(/repo-invisible/);
    expect(existsSync(`/usr/rcs-escape-${unique}`)).toBe(false);
    expect(readFileSync(tmpMarker, 'utf8')).toBe('original');
    expect(readFileSync(repoMarker, 'utf8')).toBe('original');
  });

  it("cannot read the host's home, the host's /etc or the Docker socket", async () => {
    const secret = hostFile(join(homedir(), `.rcs-sandbox-marker-${unique}`), `content-${unique}`);
    const hostname = execFileSync('hostname', { encoding: 'utf8' }).trim();
    const result = await run(`cat ${secret} || echo home-unreadable; grep -c ${hostname} /etc/hostname || echo other-etc; ls /var/run/docker.sock || echo no-socket; echo "HOME=$HOME"`);
    expect(result.output).not.toContain(`content-${unique}`);
    expect(result.output).toMatch(/home-unreadable/);
    expect(result.output).toMatch(/other-etc/);
    expect(result.output).toMatch(/no-socket/);
    expect(result.output).toMatch(/^HOME=\/tmp$/m);
  });

  it('sees exactly the environment it is given (and what docker adds), nothing of the host, and no value shows on a host command line', async () => {
    const token = `private-${unique}`;
    const gate = join(workspace, `gate-${unique}`);
    execFileSync('mkfifo', [gate]);
    execFileSync('chmod', ['0666', gate]);
    let hostCommandLines: string[] = [];
    const result = await run(`echo ready; cat ${gate} > /dev/null; env`, {
      env: { BENCH_TOKEN: token, HELDOUT_MANIFEST: join(data, 'manifest.json') },
      onOutput: (chunk) => {
        if (!chunk.startsWith('ready')) return;
        hostCommandLines = processesWith(token);
        writeFileSync(gate, 'go');
      },
    });
    const names = result.output.trim().split('\n').slice(1).map((line) => line.split('=')[0]);
    expect(names.sort()).toEqual(['BENCH_TOKEN', 'HELDOUT_MANIFEST', 'HOME', 'HOSTNAME', 'PATH', 'PWD']);
    expect(result.output).toContain(`BENCH_TOKEN=${token}`);
    expect(hostCommandLines).toEqual([]);
  });

  it('writes to the workspace; reads the held-out data, at its host path or a remapped one, but cannot change it', async () => {
    const result = await run(
      [
        'echo \'{"score": 0.5}\' > result.json',
        `cat ${data}/rows.jsonl`,
        'cat /data/rows.jsonl',
        `echo tampered > ${data}/rows.jsonl || echo data-read-only`,
        `touch ${data}/new || echo data-no-new-files`,
      ].join('; '),
      { readOnlyPaths: [{ host: data, sandbox: data }, { host: data, sandbox: '/data' }] },
    );
    expect(result.output).toMatch(/^\{"x":1\}\n\{"x":1\}\n/);
    expect(result.output).toMatch(/data-read-only/);
    expect(result.output).toMatch(/data-no-new-files/);
    expect(readFileSync(join(workspace, 'result.json'), 'utf8')).toBe('{"score": 0.5}\n');
    expect(readFileSync(join(data, 'rows.jsonl'), 'utf8')).toBe('{"x":1}\n');
    expect(readdirSync(data)).toEqual(['rows.jsonl']);
  });

  it('kills a benchmark that outlives its deadline, with every child it started, daemons included, and removes its container', async () => {
    const marker = `rcs-deadline-${unique}`;
    const sleeper = `python3 -c "import time; time.sleep(1000)" ${marker}`;
    // The deadline leaves room for the container to start on a loaded machine.
    const result = await run(`${sleeper} & setsid ${sleeper} >/dev/null 2>&1 & echo started; ${sleeper}`, { timeoutMs: 8000 });
    expect(result.timedOut).toBe(true);
    expect(result.output).toBe('started\n');
    expect(result.durationMs).toBeGreaterThanOrEqual(8000);
    expect(processesWith(marker)).toEqual([]);
    expect(sandboxContainers()).toEqual(containersBefore);
  });

  it('leaves nothing behind when a benchmark exits while its background children still run', async () => {
    const marker = `rcs-leftover-${unique}`;
    const fifo = join(workspace, `leftover-${unique}`);
    execFileSync('mkfifo', [fifo]);
    const daemon = `setsid sh -c 'echo up > ${fifo}; exec python3 -c "import time; time.sleep(1000)" ${marker}' >/dev/null 2>&1 &`;
    const result = await run(`${daemon} read up < ${fifo}; echo done`);
    expect(result).toMatchObject({ exitCode: 0, timedOut: false, output: 'done\n' });
    expect(processesWith(marker)).toEqual([]);
    expect(sandboxContainers()).toEqual(containersBefore);
  });

  it('keeps the tail of the output within the cap, streaming all of it', async () => {
    let streamed = 0;
    const result = await run('python3 -c "print(\'x\' * 200000); print(\'score=0.75\')"', {
      limits: { ...limits, outputBytes: 1024 },
      onOutput: (chunk) => (streamed += chunk.length),
    });
    expect(result.outputTruncated).toBe(true);
    expect(Buffer.byteLength(result.output)).toBe(1024);
    expect(result.output.endsWith('x\nscore=0.75\n')).toBe(true);
    expect(streamed).toBe(200012);
  });

  it('reports the exit code of a failing benchmark', async () => {
    expect(await run('echo failing >&2; exit 3')).toMatchObject({ exitCode: 3, signal: null, timedOut: false, output: 'failing\n' });
  });

  it('caps memory, file size and the private /tmp', async () => {
    const result = await run(
      [
        "python3 -c \"b = bytearray(1024 * 1024 * 1024); print('allocated')\" || echo memory-refused",
        'python3 -c "open(\'big\', \'wb\').write(b\'0\' * 2 * 1024 * 1024)" || echo file-refused',
        'head -c 3145728 /dev/zero > /tmp/fill || echo tmp-full',
      ].join('; '),
      { limits: { ...limits, memoryBytes: 256 * 1024 * 1024, fileBytes: 16 * 1024 * 1024, tmpBytes: 2 * 1024 * 1024 } },
    );
    expect(result.output).not.toMatch(/allocated/);
    expect(result.output).toMatch(/memory-refused/);
    expect(result.output).not.toMatch(/file-refused/);
    expect(result.output).toMatch(/No space left on device/);
    expect(result.output).toMatch(/tmp-full/);
    const capped = await run('python3 -c "open(\'big\', \'wb\').write(b\'0\' * 2 * 1024 * 1024)" || echo file-refused', { limits: { ...limits, fileBytes: 1024 * 1024 } });
    expect(capped.output).toMatch(/File too large/);
    expect(capped.output).toMatch(/file-refused/);
  });

  it('caps the number of processes and the CPU share', async () => {
    const forks = [
      'import os, time',
      'made = 0',
      'for _ in range(40):',
      '    try:',
      '        pid = os.fork()',
      '    except OSError:',
      '        break',
      '    if pid == 0:',
      '        time.sleep(5)',
      '        os._exit(0)',
      '    made += 1',
      "print('forked', made)",
      'end = time.monotonic() + 2',
      'while time.monotonic() < end: pass',
      "print('cpu', round(time.process_time(), 2))",
    ].join('\n');
    writeFileSync(join(workspace, 'forks.py'), forks);
    const result = await run('python3 forks.py', { limits: { ...limits, pids: 16, cpus: 0.25 } });
    const forked = Number(/forked (\d+)/.exec(result.output)?.[1]);
    const cpu = Number(/cpu ([\d.]+)/.exec(result.output)?.[1]);
    expect(forked).toBeLessThan(16);
    // Two seconds of busy wall time at a quarter of a CPU: about half a second of CPU, never two.
    expect(cpu).toBeLessThan(1.2);
  });

  it('passes no descriptor beyond stdin, stdout and stderr into the sandbox', async () => {
    const result = await run('ls /proc/$$/fd');
    expect(result.output.trim().split('\n').sort()).toEqual(['0', '1', '2']);
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
