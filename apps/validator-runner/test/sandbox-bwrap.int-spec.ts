import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect, Server } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createSandbox } from '../src/sandbox/create-sandbox';
import { Sandbox, SandboxLimits, SandboxRunRequest } from '../src/sandbox/sandbox.port';

const limits: SandboxLimits = { memoryBytes: 512 * 1024 * 1024, pids: 64, cpus: 1, outputBytes: 64 * 1024 };
const repoRoot = resolve(__dirname, '../../..');

/** Command lines of every process on the host that mention `marker`. */
function processesWith(marker: string): string[] {
  return execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(marker));
}

function connectFromHost(port: number): Promise<void> {
  return new Promise((done, fail) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy();
      done();
    });
    socket.on('error', fail);
  });
}

describe('bwrap sandbox (real bubblewrap)', () => {
  const unique = randomBytes(6).toString('hex');
  const warnings: string[] = [];
  let sandbox: Sandbox;
  let base: string;
  let workspace: string;
  let data: string;
  const hostFiles: string[] = [];

  function run(command: string, overrides: Partial<SandboxRunRequest> = {}): ReturnType<Sandbox['run']> {
    return sandbox.run({ command, workspace, env: {}, timeoutMs: 3000, limits, ...overrides });
  }

  function hostFile(path: string, content: string): string {
    writeFileSync(path, content);
    hostFiles.push(path);
    return path;
  }

  beforeAll(() => {
    sandbox = createSandbox({ kind: 'bwrap', allowUnsafeNone: false, logger: { info: () => undefined, warn: (_obj, msg) => warnings.push(msg) } });
    base = mkdtempSync(join(tmpdir(), 'rcs-sandbox-bwrap-'));
    workspace = join(base, 'workspace');
    data = join(base, 'heldout');
    mkdirSync(workspace);
    mkdirSync(data);
    writeFileSync(join(data, 'rows.jsonl'), '{"x":1}\n');
  });

  afterAll(() => {
    rmSync(base, { recursive: true, force: true });
    for (const file of hostFiles) rmSync(file, { force: true });
  });

  it('runs python3 and node, as an unprivileged user in its own hostname', async () => {
    const result = await run('python3 -c "import sys; print(\'py\', sys.version_info[0])"; node -e "console.log(\'node\', process.versions.node.split(\'.\')[0])"; id -u; hostname');
    expect(result).toMatchObject({ exitCode: 0, timedOut: false });
    expect(result.output).toMatch(/^py 3\nnode \d+\n65534\nsandbox\n$/);
  });

  it('cannot reach the host network: Redis and a server on the host loopback refuse, only its own loopback exists', async () => {
    const server: Server = createServer((socket) => socket.destroy());
    let connections = 0;
    server.on('connection', () => (connections += 1));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const port = (server.address() as { port: number }).port;
    try {
      await connectFromHost(6379);
      await connectFromHost(port);
      connections = 0;
      const probe = [
        'import socket, sys',
        'for port in sys.argv[1:]:',
        '    try:',
        "        socket.create_connection(('127.0.0.1', int(port)), timeout=1).close(); print('connected', port)",
        '    except OSError as e:',
        "        print('failed', port, e.errno)",
      ].join('\n');
      writeFileSync(join(workspace, 'net_probe.py'), probe);
      const result = await run(`python3 net_probe.py 6379 ${port}; awk 'NR > 2 { print $1 }' /proc/net/dev`);
      expect(result.output).toMatch(/^failed 6379 \d+\n/m);
      expect(result.output).toMatch(new RegExp(`^failed ${port} \\d+\\n`, 'm'));
      expect(result.output).not.toMatch(/connected/);
      expect(result.output).toMatch(/^lo:\n$/m);
      expect(result.output.split('\n').filter((line) => line.endsWith(':'))).toEqual(['lo:']);
      expect(connections).toBe(0);
    } finally {
      await new Promise<void>((done) => server.close(() => done()));
    }
  });

  it('cannot write outside the workspace: /usr, the host /tmp and the repository stay untouched', async () => {
    const tmpMarker = hostFile(join(base, `tmp-marker-${unique}`), 'original');
    const repoMarker = hostFile(join(repoRoot, 'apps', 'validator-runner', `.sandbox-marker-${unique}`), 'original');
    const result = await run(
      [
        `echo x > /usr/rcs-escape-${unique} && echo wrote-usr`,
        `cat ${tmpMarker} || echo tmp-marker-invisible`,
        `echo tampered > ${tmpMarker}`,
        `echo tampered > ${repoMarker} || echo repo-write-failed`,
        `ls ${repoRoot} || echo repo-invisible`,
      ].join('; '),
    );
    expect(result.output).not.toMatch(/wrote-usr/);
    expect(result.output).toMatch(/Read-only file system/);
    expect(result.output).toMatch(/tmp-marker-invisible/);
    expect(result.output).toMatch(/repo-write-failed/);
    expect(result.output).toMatch(/repo-invisible/);
    expect(existsSync(`/usr/rcs-escape-${unique}`)).toBe(false);
    expect(readFileSync(tmpMarker, 'utf8')).toBe('original');
    expect(readFileSync(repoMarker, 'utf8')).toBe('original');
  });

  it("cannot read the host's home", async () => {
    const secret = hostFile(join(homedir(), `.rcs-sandbox-marker-${unique}`), `content-${unique}`);
    const result = await run(`cat ${secret} || echo home-unreadable; ls ${homedir()} || echo home-invisible; echo "HOME=$HOME"`);
    expect(result.output).not.toContain(`content-${unique}`);
    expect(result.output).toMatch(/home-unreadable/);
    expect(result.output).toMatch(/home-invisible/);
    expect(result.output).toMatch(/^HOME=\/tmp$/m);
  });

  it('sees exactly the environment it is given, nothing of the host, and no value shows on a host command line', async () => {
    process.env.RCS_SANDBOX_HOST_ONLY = `host-${unique}`;
    const token = `private-${unique}`;
    const gate = join(workspace, `gate-${unique}`);
    execFileSync('mkfifo', [gate]);
    let hostCommandLines: string[] = [];
    try {
      // The benchmark waits on the fifo, so the host's process list is read while it is certainly running.
      const result = await run(`echo ready; cat ${gate} > /dev/null; env`, {
        env: { BENCH_TOKEN: token, HELDOUT_MANIFEST: join(data, 'manifest.json') },
        onOutput: (chunk) => {
          if (!chunk.startsWith('ready')) return;
          hostCommandLines = processesWith(token);
          writeFileSync(gate, 'go');
        },
      });
      const names = result.output.trim().split('\n').slice(1).map((line) => line.split('=')[0]);
      expect(names.sort()).toEqual(['BENCH_TOKEN', 'HELDOUT_MANIFEST', 'HOME', 'PATH', 'PWD']);
      expect(result.output).toContain(`BENCH_TOKEN=${token}`);
      expect(result.output).not.toContain(`host-${unique}`);
      expect(hostCommandLines).toEqual([]);
    } finally {
      delete process.env.RCS_SANDBOX_HOST_ONLY;
    }
  });

  it('does not hand the environment to the host-side launchers: LD_PRELOAD reaches only the sandboxed shell', async () => {
    const library = join(workspace, 'missing-evil.so');
    const result = await run('echo "preload=$LD_PRELOAD"', { env: { LD_PRELOAD: library } });
    expect(result).toMatchObject({ exitCode: 0, timedOut: false });
    expect(result.output).toContain(`preload=${library}`);
    // The dynamic loader complains once per process that loads with it: only the sandboxed /bin/sh did.
    expect(result.output.match(/cannot be preloaded/g)).toHaveLength(1);
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

  it('kills a benchmark that outlives its deadline, with every child it started, daemons included', async () => {
    const marker = `rcs-deadline-${unique}`;
    const sleeper = `python3 -c "import time; time.sleep(1000)" ${marker}`;
    const result = await run(`${sleeper} & setsid ${sleeper} >/dev/null 2>&1 & echo started; ${sleeper}`, { timeoutMs: 1000 });
    expect(result.timedOut).toBe(true);
    expect(result.output).toBe('started\n');
    expect(result.durationMs).toBeGreaterThanOrEqual(1000);
    expect(result.durationMs).toBeLessThan(3000);
    expect(processesWith(marker)).toEqual([]);
  });

  it('leaves nothing behind when a benchmark exits while its background children still run', async () => {
    const marker = `rcs-leftover-${unique}`;
    const fifo = join(workspace, `leftover-${unique}`);
    execFileSync('mkfifo', [fifo]);
    // The benchmark exits only once its daemon is up (it reports through the fifo).
    const daemon = `setsid sh -c 'echo up > ${fifo}; exec python3 -c "import time; time.sleep(1000)" ${marker}' >/dev/null 2>&1 &`;
    const result = await run(`${daemon} read up < ${fifo}; echo done`);
    expect(result).toMatchObject({ exitCode: 0, timedOut: false, output: 'done\n' });
    expect(processesWith(marker)).toEqual([]);
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

  it('passes no descriptor beyond stdin, stdout and stderr into the sandbox', async () => {
    const result = await run('ls /proc/$$/fd');
    expect(result.output.trim().split('\n').sort()).toEqual(['0', '1', '2']);
  });

  it('rejects with a start failure, not a benchmark result, when bubblewrap cannot set the sandbox up', async () => {
    const run = sandbox.run({ command: 'echo never', workspace, readOnlyPaths: [{ host: data, sandbox: '/proc/rcs-data' }], env: {}, timeoutMs: 3000, limits });
    await expect(run).rejects.toMatchObject({ code: 'start-failed', message: expect.stringMatching(/^bubblewrap could not run the command \(exit 1\): bwrap: /) });
  });

  it('reports the exit code of a failing benchmark', async () => {
    expect(await run('echo failing >&2; exit 3')).toMatchObject({ exitCode: 3, signal: null, timedOut: false, output: 'failing\n' });
  });

  it('caps memory and file size', async () => {
    const result = await run(
      [
        "python3 -c \"b = bytearray(1024 * 1024 * 1024); print('allocated')\" || echo memory-refused",
        'python3 -c "open(\'big\', \'wb\').write(b\'0\' * 2 * 1024 * 1024)" || echo file-refused',
      ].join('; '),
      { limits: { ...limits, memoryBytes: 256 * 1024 * 1024, fileBytes: 1024 * 1024 } },
    );
    expect(result.output).not.toMatch(/allocated/);
    expect(result.output).toMatch(/memory-refused/);
    expect(result.output).toMatch(/File too large/);
    expect(result.output).toMatch(/file-refused/);
  });

  it('caps the number of processes and the CPU share as far as this host allows, and says which', async () => {
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
      'end = time.monotonic() + 1',
      'while time.monotonic() < end: pass',
      "print('cpu', round(time.process_time(), 2))",
    ].join('\n');
    writeFileSync(join(workspace, 'forks.py'), forks);
    const result = await run('python3 forks.py', { limits: { ...limits, pids: 16, cpus: 0.25 } });
    const forked = Number(/forked (\d+)/.exec(result.output)?.[1]);
    const cpu = Number(/cpu ([\d.]+)/.exec(result.output)?.[1]);
    if (sandbox.enforcement.pids === 'none') expect(forked).toBe(40);
    else expect(forked).toBeLessThan(16);
    if (sandbox.enforcement.cpus === 'none') expect(cpu).toBeGreaterThan(0.6);
    else expect(cpu).toBeLessThan(0.6);
    expect(warnings).toEqual(Object.values(sandbox.enforcement).includes('none') ? [expect.stringMatching(/cannot be enforced/)] : []);
  });
});
