import { ChildProcessWithoutNullStreams, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, until } from '@rcs/testing';
import { STACK_APPS } from './apps';
import { redisAnswers } from './redis';

const ROOT = join(__dirname, '..', '..');

/** `npm start -- coordinator-api` on embedded defaults: embedded Postgres, dev chain, generated admin token. */
describe('local stack launcher', () => {
  it('serves /healthz and /openapi.json on embedded defaults and stops cleanly on SIGINT', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'stack-'));
    const port = await freePort();
    const webPort = await freePort();
    const child = spawn(process.execPath, ['-r', '@swc-node/register', 'tools/stack/main.ts', 'coordinator-api'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        COORDINATOR_PORT: String(port),
        WEB_PORT: String(webPort),
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          if (stdout.includes('stack: ready')) resolve();
        });
        void exited.then((code) => reject(new Error(`launcher exited early (${code}): ${stdout}\n${stderr}`)));
      });
      expect(stdout).toContain(`coordinator-api   http://127.0.0.1:${port}`);
      expect(stdout).toMatch(/admin token \(X-Admin-Token\): [0-9a-f]{48}/);
      expect(stdout).toContain(`http://127.0.0.1:${port}/docs`);
      // The web UI is served with a config.json pointing at this stack's coordinator.
      expect(stdout).toMatch(new RegExp(`web UI +http://127\\.0\\.0\\.1:${webPort}`));
      await expect((await fetch(`http://127.0.0.1:${webPort}/config.json`)).json()).resolves.toMatchObject({ coordinator: `http://127.0.0.1:${port}` });
      const page = await fetch(`http://127.0.0.1:${webPort}/`);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      // DECISIONS §14: the page may script and style only from itself, and connect to itself and the services.
      expect(page.headers.get('content-security-policy')).toContain(`connect-src 'self' http://127.0.0.1:${port} `);
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'; style-src 'self'");
      expect([page.headers.get('x-content-type-options'), page.headers.get('referrer-policy')]).toEqual(['nosniff', 'no-referrer']);
      // No inline script left for that policy to block: index.html loads its early reads from a file.
      expect(await page.text()).toMatch(/<script\s+src="\.\/early\.js"><\/script>/);

      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(health.status).toBe(200);
      const openapi = (await (await fetch(`http://127.0.0.1:${port}/openapi.json`)).json()) as { info: { version: string } };
      expect(openapi.info.version).toBe('0.1.0');
      const ready = (await (await fetch(`http://127.0.0.1:${port}/readyz`)).json()) as { status: string; stake_check: string };
      expect(ready).toMatchObject({ status: 'ready', stake_check: 'off' });

      child.kill('SIGINT');
      expect(await exited).toBe(0);
      expect(stdout).toContain('stack: stopped');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

/** One launcher process: its output so far, and promises for "stack: ready" and its exit. */
interface Launcher {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  ready: Promise<void>;
  exited: Promise<number | null>;
}

/** `detached`: the launcher leads its own process group, as `npm start` leads a terminal's foreground group. */
function launch(args: string[], env: NodeJS.ProcessEnv, detached = false): Launcher {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', 'tools/stack/main.ts', ...args], {
    cwd: ROOT,
    detached,
    env: { HOME: process.env.HOME, LOG_LEVEL: 'warn', REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('stack: ready')) resolve();
    });
    void exited.then((code) => reject(new Error(`launcher exited (${code}): ${stdout}\n${stderr}`)));
  });
  ready.catch(() => undefined);
  return { child, stdout: () => stdout, stderr: () => stderr, ready, exited };
}

/** Free ports for every app the launcher knows, under their variables. */
async function freePorts(): Promise<Record<string, string>> {
  const ports: Record<string, string> = {};
  for (const app of STACK_APPS) ports[app.portVariable] = String(await freePort());
  // The launcher's web UI too, so no test binds the default 8300 of a developer's npm start.
  ports.WEB_PORT = String(await freePort());
  return ports;
}

/** A directory holding every executable of PATH except bwrap: this host as if bubblewrap were not installed. */
function pathWithout(name: string, into: string): string {
  mkdirSync(into);
  for (const dir of (process.env.PATH ?? '').split(delimiter).filter((d) => existsSync(d) && statSync(d).isDirectory())) {
    for (const entry of readdirSync(dir)) {
      if (entry !== name && !existsSync(join(into, entry))) symlinkSync(join(dir, entry), join(into, entry));
    }
  }
  return into;
}

describe('local stack launcher: sharp edges', () => {
  let dataDir: string;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'stack-'));
  });

  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('refuses a second npm start while one runs, touching nothing of the running stack', async () => {
    const ports = await freePorts();
    const env = { PATH: process.env.PATH, DATA_DIR: dataDir, ...ports };
    const first = launch(['coordinator-api'], env);
    try {
      await first.ready;
      const url = `http://127.0.0.1:${ports.COORDINATOR_PORT}`;
      const state = readFileSync(join(dataDir, 'stack.json'), 'utf8');
      // Every service's URL, so that a second shell's tools find this stack on its ports (issue 26).
      expect(JSON.parse(state)).toEqual({
        coordinator_url: url,
        admin_token: expect.any(String),
        pool_url: null,
        weight_setter_url: null,
        validator_runner_url: null,
        web_url: `http://127.0.0.1:${ports.WEB_PORT}`,
        // Its dev chain: where `rcs payout` finds the claim contract and the block time of this stack.
        chain_env: expect.objectContaining({ CHAIN: 'dev', REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', DEV_CHAIN_BLOCK_TIME_MS: '1000' }),
        pid: first.child.pid,
      });
      // `npm run round` without --url or --admin-token plays against it.
      const round = await promisify(execFile)(process.execPath, ['-r', '@swc-node/register', 'tools/round/main.ts', '--wait-seconds', '0'], {
        cwd: ROOT,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir },
      });
      expect(round.stdout).toMatch(/^round: ok \(task \S+, submission \S+, pending_verification\)$/m);

      // The same DATA_DIR: the lock names the running launcher.
      const second = launch(['coordinator-api'], env);
      expect(await second.exited).toBe(1);
      expect(second.stdout()).not.toContain('stack: ready');
      expect(second.stderr()).toContain(`stack: a stack is already running from ${dataDir} (launcher pid ${first.child.pid}, coordinator at ${url})`);
      expect(second.stderr()).toContain('stop it first (Ctrl-C in its terminal');
      expect(second.stderr()).toContain('(COORDINATOR_PORT, POOL_PORT, VALIDATOR_RUNNER_PORT, WEIGHT_SETTER_PORT, PAYOUT_VERIFIER_PORT, WEB_PORT)');
      expect(second.stderr()).not.toMatch(/EADDRINUSE|at .*\.ts:\d+/);

      // Another DATA_DIR on the same ports: the busy port is named with its variable.
      const otherDir = join(dataDir, 'other');
      const third = launch(['coordinator-api'], { ...env, DATA_DIR: otherDir });
      expect(await third.exited).toBe(1);
      expect(third.stderr()).toContain(`something already listens on 127.0.0.1:${ports.COORDINATOR_PORT} (coordinator-api, COORDINATOR_PORT)`);
      expect(readdirSync(otherDir)).toEqual([]);

      // The running stack is untouched: its state file, its health, its admin token.
      expect(readFileSync(join(dataDir, 'stack.json'), 'utf8')).toBe(state);
      expect(readFileSync(join(dataDir, 'stack.pid'), 'utf8')).toBe(`${first.child.pid}\n`);
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      const token = (JSON.parse(state) as { admin_token: string }).admin_token;
      const admin = await fetch(`${url}/api/v1/tasks`, { method: 'POST', headers: { 'X-Admin-Token': token, 'Content-Type': 'application/json' }, body: '{}' });
      expect(admin.status).toBe(422);

      first.child.kill('SIGINT');
      expect(await first.exited).toBe(0);
      expect(existsSync(join(dataDir, 'stack.json'))).toBe(false);
      expect(existsSync(join(dataDir, 'stack.pid'))).toBe(false);
    } finally {
      if (first.child.exitCode === null) first.child.kill('SIGKILL');
    }
  }, 180_000);

  it('a launcher killed outright (SIGKILL, no clean-up of its own) leaves no service running', async () => {
    const ports = await freePorts();
    const stack = launch(['coordinator-api', 'pool-service'], { PATH: process.env.PATH, DATA_DIR: dataDir, ...ports }, true);
    const group = stack.child.pid as number;
    try {
      await stack.ready;
      stack.child.kill('SIGKILL');
      await stack.exited;
      // Each service sees its channel to the launcher close and stops itself.
      for (const [variable, path] of [
        ['COORDINATOR_PORT', '/healthz'],
        ['POOL_PORT', '/health'],
      ]) {
        const url = `http://127.0.0.1:${ports[variable]}${path}`;
        const answers = () => fetch(url, { signal: AbortSignal.timeout(2_000) }).then(() => 'answers', () => 'no answer');
        await until(`${url} stops answering`, answers, (state) => state === 'no answer', 60_000);
      }
    } finally {
      // Whatever is left of its process group (the services, when they did not stop).
      try {
        process.kill(-group, 'SIGKILL');
      } catch {
        // the group is gone: nothing was left
      }
    }
  }, 240_000);

  it('without bwrap runs every other app, and the banner says the runner is not started and how to get its sandbox', async () => {
    const ports = await freePorts();
    const env = { PATH: pathWithout('bwrap', join(dataDir, 'bin')), DATA_DIR: join(dataDir, 'data'), ...ports };

    const named = launch(['validator-runner'], env);
    expect(await named.exited).toBe(1);
    expect(named.stderr()).toContain('stack: validator-runner cannot start: bubblewrap (bwrap) is not installed; install it with: apt-get install bubblewrap');
    expect(existsSync(join(dataDir, 'data', 'stack.pid'))).toBe(false);

    const stack = launch([], env);
    try {
      await stack.ready;
      const out = stack.stdout();
      expect(out).toContain('stack: not starting validator-runner: bubblewrap (bwrap) is not installed; install it with: apt-get install bubblewrap');
      expect(out).toMatch(/validator-runner +NOT STARTED: bubblewrap \(bwrap\) is not installed; install it with: apt-get install bubblewrap/);
      for (const app of STACK_APPS.filter((a) => a.name !== 'validator-runner')) {
        expect(out).toContain(`${app.name.padEnd(17)} http://127.0.0.1:${ports[app.portVariable]}`);
        expect((await fetch(`http://127.0.0.1:${ports[app.portVariable]}${app.healthPath}`)).status).toBe(200);
      }
      await expect(fetch(`http://127.0.0.1:${ports.VALIDATOR_RUNNER_PORT}/healthz`)).rejects.toThrow();
      stack.child.kill('SIGINT');
      expect(await stack.exited).toBe(0);
    } finally {
      if (stack.child.exitCode === null) stack.child.kill('SIGKILL');
    }
  }, 240_000);

  it('plays npm run round to an accepted decision, then stops on Ctrl-C (SIGINT to its process group): services first, its own Redis last, in seconds, no ERROR or WARN line', async () => {
    const ports = await freePorts();
    // Nothing answers here, so the launcher starts its own redis-server, as on a newcomer's machine.
    const redisUrl = `redis://127.0.0.1:${await freePort()}`;
    const stack = launch([], { PATH: process.env.PATH, DATA_DIR: dataDir, REDIS_URL: redisUrl, LOG_LEVEL: 'info', ...ports }, true);
    const pid = stack.child.pid as number;
    try {
      await stack.ready;
      expect(stack.stdout()).toContain(`${redisUrl} (started by the stack)`);
      // `npm run round` on the whole stack: its submission replayed in the sandbox (python3, not `python`) and
      // accepted, and its task closed once decided, its repository being removed.
      const round = await promisify(execFile)(process.execPath, ['-r', '@swc-node/register', 'tools/round/main.ts', '--wait-seconds', '120'], {
        cwd: ROOT,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir },
      });
      expect(round.stdout).toMatch(/^decision: accepted/m);
      expect(round.stdout).toMatch(/^closed: task \S+$/m);
      expect(round.stdout).toMatch(/^round: ok \(task \S+, submission \S+, accepted\)$/m);
      const from = { stdout: stack.stdout().length, stderr: stack.stderr().length };
      const sent = Date.now();
      // What a terminal does on Ctrl-C: the signal goes to every process of the foreground group.
      process.kill(-pid, 'SIGINT');
      expect(await stack.exited).toBe(0);
      const seconds = (Date.now() - sent) / 1000;
      const lines = `${stack.stdout().slice(from.stdout)}${stack.stderr().slice(from.stderr)}`.split('\n').filter((line) => line.trim() !== '');
      process.stdout.write(`Ctrl-C: ${lines.length} lines in ${seconds.toFixed(1)} s\n${lines.join('\n')}\n`);
      expect(lines.filter((line) => /\b(ERROR|WARN)\b/.test(line))).toEqual([]);
      // Tier by tier: the apps that read from the others first, then the pool, then the coordinator,
      // each on the launcher's SIGTERM (the terminal's SIGINT is the launcher's to answer).
      const stopping = lines.filter((line) => line.includes('shutting down'));
      expect(stopping.every((line) => line.includes('SIGTERM'))).toBe(true);
      const order = stopping.map((line) => STACK_APPS.find((app) => line.includes(app.name))?.name);
      expect(order.slice(-2)).toEqual(['pool-service', 'coordinator-api']);
      expect(order.slice(0, -2).sort()).toEqual(['payout-verifier', 'validator-runner', 'weight-setter']);
      expect(lines.at(-1)).toBe('stack: stopped');
      expect(seconds).toBeLessThan(15);
      // Its Redis went with it, after the services that used it.
      await expect(redisAnswers(redisUrl)).resolves.toBe(false);
    } finally {
      if (stack.child.exitCode === null) process.kill(-pid, 'SIGKILL');
    }
  }, 420_000);
});
