import { ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { childProcessBaseEnv, createScratchDatabase, freePort, ScratchDatabase, testRedisUrl, waitForHttp } from '@rcs/testing';
import { buildApp, BuildResult } from './build';

const ROOT = join(__dirname, '..', '..');

/**
 * The production build: each app compiled to plain JavaScript and run with `node main.js`, as the
 * images run it — no @swc-node/register, no TypeScript, path aliases resolved, migrations included.
 */
describe('production build', () => {
  let outRoot: string;
  let db: ScratchDatabase;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    // Inside the repository so that the compiled files find node_modules as the image's do.
    mkdirSync(join(ROOT, 'tmp'), { recursive: true });
    outRoot = mkdtempSync(join(ROOT, 'tmp', 'build-'));
    db = await createScratchDatabase('build');
  });

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await db.drop();
    rmSync(outRoot, { recursive: true, force: true });
  });

  async function runCompiled(result: BuildResult, portVariable: string, healthPath: string, env: NodeJS.ProcessEnv): Promise<string> {
    const port = await freePort();
    const child = spawn(process.execPath, [result.main], {
      cwd: outRoot,
      env: { ...childProcessBaseEnv(), HOST: '127.0.0.1', LOG_LEVEL: 'warn', REDIS_URL: testRedisUrl(), ...env, [portVariable]: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const polling = new AbortController();
    child.once('exit', (code) => polling.abort(new Error(`${result.app} exited (${code}):\n${output}`)));
    const url = `http://127.0.0.1:${port}`;
    try {
      await waitForHttp(`${url}${healthPath}`, 60_000, { signal: polling.signal });
    } catch (error) {
      throw polling.signal.aborted ? polling.signal.reason : error;
    }
    return url;
  }

  function emitted(dir: string): string[] {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(dir, join(entry.parentPath, entry.name)));
  }

  it('emits only JavaScript reachable from main.ts, with every path alias resolved', () => {
    const result = buildApp('coordinator-api', join(outRoot, 'coordinator-api'));
    const files = emitted(result.outDir);
    expect(files).toContain('apps/coordinator-api/src/main.js');
    expect(files.some((file) => file.startsWith('apps/coordinator-api/src/migrations/'))).toBe(true);
    expect(files.filter((file) => !file.endsWith('.js') && !file.endsWith('.js.map'))).toEqual([]);
    // Tests and the test helpers never reach an image.
    expect(files.filter((file) => /spec\.js$|^libs\/testing\/|\/test\//.test(file))).toEqual([]);
    for (const file of files.filter((name) => name.endsWith('.js'))) {
      const code = readFileSync(join(result.outDir, file), 'utf8');
      expect({ file, alias: /require\(["']@rcs\//.test(code), swcNode: code.includes('@swc-node') }).toEqual({ file, alias: false, swcNode: false });
    }
  });

  it('the compiled coordinator migrates an empty database at start and is ready', async () => {
    const result = buildApp('coordinator-api', join(outRoot, 'coordinator-api-run'));
    const url = await runCompiled(result, 'COORDINATOR_PORT', '/healthz', {
      COORDINATOR_DATABASE_URL: db.url,
      REDIS_KEY_PREFIX: `build-${process.pid}`,
      CHAIN: 'dev',
      NETUID: '1',
      STAKE_CHECK: 'off',
    });
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready', checks: { database: { ok: true }, redis: { ok: true } } });
    const tasks = await fetch(`${url}/api/v1/tasks`);
    expect(tasks.status).toBe(200);
  });

  it.each([
    // Both read the chain: the in-process dev chain stands in for a subtensor node.
    ['pool-service', '/healthz', 'POOL_PORT', { CHAIN: 'dev', NETUID: '1' }],
    ['weight-setter', '/healthz', 'WEIGHT_SETTER_PORT', { CHAIN: 'dev', NETUID: '1', VALIDATOR_SECRET_URI: '//Alice', COORDINATOR_URL: 'http://127.0.0.1:9' }],
    // Its embedded database under DATA_DIR, its migrations compiled with it.
    ['payout-verifier', '/healthz', 'PAYOUT_VERIFIER_PORT', { CHAIN: 'dev', NETUID: '1', VALIDATOR_SECRET_URI: '//Alice', COORDINATOR_URL: 'http://127.0.0.1:9', POOL_URL: 'http://127.0.0.1:9' }],
    // The coordinator need not be up: the runner's scan loop retries it.
    ['validator-runner', '/healthz', 'VALIDATOR_RUNNER_PORT', { VALIDATOR_SECRET_URI: '//Alice', COORDINATOR_URL: 'http://127.0.0.1:9' }],
  ])('the compiled %s starts and answers %s', async (app, healthPath, portVariable, env: NodeJS.ProcessEnv) => {
    const result = buildApp(app, join(outRoot, app));
    const url = await runCompiled(result, portVariable, healthPath, { REDIS_KEY_PREFIX: `build-${process.pid}`, DATA_DIR: join(outRoot, `${app}-data`), ...env });
    const health = await fetch(`${url}${healthPath}`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', service: app });
    // The pool starts its embedded Postgres (PGlite) here, which takes tens of seconds on a loaded machine.
  }, 120_000);
});
