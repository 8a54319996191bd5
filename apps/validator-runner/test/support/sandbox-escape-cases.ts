import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect, Server } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Sandbox, SandboxLimits, SandboxRunRequest } from '../../src/sandbox/sandbox.port';

export const limits: SandboxLimits = { memoryBytes: 512 * 1024 * 1024, pids: 64, cpus: 1, outputBytes: 64 * 1024 };
const repoRoot = resolve(__dirname, '../../../..');

/** Command lines of every process on the host that mention `marker`. */
export function processesWith(marker: string): string[] {
  return execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(marker));
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

/** A shell command that must fail inside the sandbox, and what it echoes when it does. */
export interface RefusedProbe {
  command: string;
  fallback: string;
}

/** What differs between drivers in the escape cases every sandbox driver must pass. */
export interface SandboxDriver {
  /** Makes the sandbox under test; runs in beforeAll, so it may also assert that the driver can run here. */
  create(): Sandbox;
  /** Prefix of the scratch folder holding the workspace and the held-out data. */
  tmpPrefix: string;
  /** Deadline of an ordinary run. */
  runTimeoutMs: number;
  /** Asserts what the driver itself must not leave behind after a run (containers…). */
  expectNothingLeft?(): void;
  network: {
    title: string;
    /** Where the host's test server listens. */
    listenHost: string;
    /** Host addresses that reach the test server from the host but must refuse the sandbox. */
    serverAddresses(): string[];
    /** Outside `host:port`s the sandbox must not reach. */
    outside: string[];
  };
  readOnlyFiles: {
    title: string;
    /** Whether a write to / must fail too (it is a private tmpfs in some drivers). */
    rootReadOnly: boolean;
  };
  hostFiles: {
    title: string;
    /** Host places besides the home's files that the sandbox must not see. */
    probes: RefusedProbe[];
  };
  environment: {
    title: string;
    /** Variables the driver adds to the ones given. */
    added: string[];
  };
  deadline: {
    title: string;
    timeoutMs: number;
    /** Upper bound of a killed run's duration, where the driver's start-up time allows one. */
    maxDurationMs?: number;
  };
}

/** The sandbox a suite runs against, and its scratch places; filled in by beforeAll. */
export interface SandboxUnderTest {
  readonly unique: string;
  sandbox: Sandbox;
  base: string;
  workspace: string;
  data: string;
  run(command: string, overrides?: Partial<SandboxRunRequest>): ReturnType<Sandbox['run']>;
  /** A host file the suite removes at the end. */
  hostFile(path: string, content: string): string;
}

/** Echoes `memory-refused` unless a 1 GiB allocation succeeds (then `allocated`). */
export const ALLOCATE_1_GIB = "python3 -c \"b = bytearray(1024 * 1024 * 1024); print('allocated')\" || echo memory-refused";
/** Echoes `file-refused` when writing a 2 MiB file fails. */
export const WRITE_2_MIB = 'python3 -c "open(\'big\', \'wb\').write(b\'0\' * 2 * 1024 * 1024)" || echo file-refused';

/**
 * Runs a python script that forks up to 40 sleepers, then busies one CPU for `busySeconds`, under a cap of
 * 16 processes and a quarter of a CPU; says how many processes it made and how much CPU time it got.
 */
export async function forkAndSpin(box: SandboxUnderTest, busySeconds: number): Promise<{ forked: number; cpu: number }> {
  const script = [
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
    `end = time.monotonic() + ${busySeconds}`,
    'while time.monotonic() < end: pass',
    "print('cpu', round(time.process_time(), 2))",
  ].join('\n');
  writeFileSync(join(box.workspace, 'forks.py'), script);
  const { output } = await box.run('python3 forks.py', { limits: { ...limits, pids: 16, cpus: 0.25 } });
  return { forked: Number(/forked (\d+)/.exec(output)?.[1]), cpu: Number(/cpu ([\d.]+)/.exec(output)?.[1]) };
}

/**
 * Registers, inside the caller's describe, the escape cases every sandbox driver must pass, and returns the
 * sandbox under test for the driver's own cases.
 */
export function sandboxEscapeCases(driver: SandboxDriver): SandboxUnderTest {
  const hostFiles: string[] = [];
  const box: SandboxUnderTest = {
    unique: randomBytes(6).toString('hex'),
    sandbox: undefined as unknown as Sandbox,
    base: '',
    workspace: '',
    data: '',
    run: (command, overrides = {}) => box.sandbox.run({ command, workspace: box.workspace, env: {}, timeoutMs: driver.runTimeoutMs, limits, ...overrides }),
    hostFile: (path, content) => {
      writeFileSync(path, content);
      hostFiles.push(path);
      return path;
    },
  };
  const { unique, run, hostFile } = box;
  const expectNothingLeft = (): void => driver.expectNothingLeft?.();

  beforeAll(() => {
    box.sandbox = driver.create();
    box.base = mkdtempSync(join(tmpdir(), driver.tmpPrefix));
    box.workspace = join(box.base, 'workspace');
    box.data = join(box.base, 'heldout');
    mkdirSync(box.workspace);
    mkdirSync(box.data);
    writeFileSync(join(box.data, 'rows.jsonl'), '{"x":1}\n');
  });

  afterAll(() => {
    if (box.base) rmSync(box.base, { recursive: true, force: true });
    for (const file of hostFiles) rmSync(file, { force: true });
  });

  it(driver.network.title, async () => {
    const server: Server = createServer((socket) => socket.destroy());
    let connections = 0;
    server.on('connection', () => (connections += 1));
    await new Promise<void>((done) => server.listen(0, driver.network.listenHost, done));
    const port = (server.address() as { port: number }).port;
    try {
      const addresses = driver.network.serverAddresses();
      await connectFromHost(6379);
      for (const address of addresses) await connectFromHost(port, address);
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
      writeFileSync(join(box.workspace, 'net_probe.py'), probe);
      const targets = ['127.0.0.1:6379', ...addresses.map((address) => `${address}:${port}`), ...driver.network.outside];
      const result = await run(`python3 net_probe.py ${targets.join(' ')}; awk 'NR > 2 { print $1 }' /proc/net/dev`);
      for (const target of targets) expect(result.output).toMatch(new RegExp(`^failed ${target.replace(/\./g, '\\.')} \\d+\\n`, 'm'));
      expect(result.output).not.toMatch(/connected/);
      expect(result.output).toMatch(/^lo:\n$/m);
      expect(result.output.split('\n').filter((line) => line.endsWith(':'))).toEqual(['lo:']);
      expect(connections).toBe(0);
    } finally {
      await new Promise<void>((done) => server.close(() => done()));
    }
  });

  it(driver.readOnlyFiles.title, async () => {
    const tmpMarker = hostFile(join(box.base, `tmp-marker-${unique}`), 'original');
    const repoMarker = hostFile(join(repoRoot, 'apps', 'validator-runner', `.sandbox-marker-${unique}`), 'original');
    const result = await run(
      [
        `echo x > /usr/rcs-escape-${unique} && echo wrote-usr`,
        ...(driver.readOnlyFiles.rootReadOnly ? [`echo x > /rcs-escape-${unique} && echo wrote-root`] : []),
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

  it(driver.hostFiles.title, async () => {
    const secret = hostFile(join(homedir(), `.rcs-sandbox-marker-${unique}`), `content-${unique}`);
    const probes = driver.hostFiles.probes.map((probe) => `${probe.command} || echo ${probe.fallback}`);
    const result = await run([`cat ${secret} || echo home-unreadable`, ...probes, 'echo "HOME=$HOME"'].join('; '));
    expect(result.output).not.toContain(`content-${unique}`);
    expect(result.output).toMatch(/home-unreadable/);
    for (const probe of driver.hostFiles.probes) expect(result.output).toMatch(new RegExp(probe.fallback));
    expect(result.output).toMatch(/^HOME=\/tmp$/m);
  });

  it(driver.environment.title, async () => {
    process.env.RCS_SANDBOX_HOST_ONLY = `host-${unique}`;
    const token = `private-${unique}`;
    const gate = join(box.workspace, `gate-${unique}`);
    execFileSync('mkfifo', [gate]);
    // The driver may run the benchmark as another uid than the host's.
    execFileSync('chmod', ['0666', gate]);
    let hostCommandLines: string[] = [];
    try {
      // The benchmark waits on the fifo, so the host's process list is read while it is certainly running.
      const result = await run(`echo ready; cat ${gate} > /dev/null; env`, {
        env: { BENCH_TOKEN: token, HELDOUT_MANIFEST: join(box.data, 'manifest.json') },
        onOutput: (chunk) => {
          if (!chunk.startsWith('ready')) return;
          hostCommandLines = processesWith(token);
          writeFileSync(gate, 'go');
        },
      });
      const names = result.output.trim().split('\n').slice(1).map((line) => line.split('=')[0]);
      expect(names.sort()).toEqual(['BENCH_TOKEN', 'HELDOUT_MANIFEST', 'HOME', 'PATH', 'PWD', ...driver.environment.added].sort());
      expect(result.output).toContain(`BENCH_TOKEN=${token}`);
      expect(result.output).not.toContain(`host-${unique}`);
      expect(hostCommandLines).toEqual([]);
    } finally {
      delete process.env.RCS_SANDBOX_HOST_ONLY;
    }
  });

  it('writes to the workspace; reads the held-out data, at its host path or a remapped one, but cannot change it', async () => {
    const { data, workspace } = box;
    const result = await run(
      [
        'echo \'{"score": 0.5}\' > result.json',
        `cat ${data}/rows.jsonl`,
        'cat /data/rows.jsonl',
        // The shell's complaint goes to stderr, a pipe of its own whose lines may be read before the cats' stdout: silenced, so the output's order is fixed.
        `{ echo tampered > ${data}/rows.jsonl; } 2>/dev/null || echo data-read-only`,
        `touch ${data}/new 2>/dev/null || echo data-no-new-files`,
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

  it(driver.deadline.title, async () => {
    const { timeoutMs, maxDurationMs } = driver.deadline;
    const marker = `rcs-deadline-${unique}`;
    const sleeper = `python3 -c "import time; time.sleep(1000)" ${marker}`;
    const result = await run(`${sleeper} & setsid ${sleeper} >/dev/null 2>&1 & echo started; ${sleeper}`, { timeoutMs });
    expect(result.timedOut).toBe(true);
    expect(result.output).toBe('started\n');
    expect(result.durationMs).toBeGreaterThanOrEqual(timeoutMs);
    if (maxDurationMs !== undefined) expect(result.durationMs).toBeLessThan(maxDurationMs);
    expect(processesWith(marker)).toEqual([]);
    expectNothingLeft();
  });

  it('leaves nothing behind when a benchmark exits while its background children still run', async () => {
    const marker = `rcs-leftover-${unique}`;
    const fifo = join(box.workspace, `leftover-${unique}`);
    execFileSync('mkfifo', [fifo]);
    // The benchmark exits only once its daemon is up (it reports through the fifo).
    const daemon = `setsid sh -c 'echo up > ${fifo}; exec python3 -c "import time; time.sleep(1000)" ${marker}' >/dev/null 2>&1 &`;
    const result = await run(`${daemon} read up < ${fifo}; echo done`);
    expect(result).toMatchObject({ exitCode: 0, timedOut: false, output: 'done\n' });
    expect(processesWith(marker)).toEqual([]);
    expectNothingLeft();
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

  it('reports the exit code of a failing benchmark', async () => {
    expect(await run('echo failing >&2; exit 3')).toMatchObject({ exitCode: 3, signal: null, timedOut: false, output: 'failing\n' });
  });

  return box;
}
