import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@rcs/testing';

const ROOT = join(__dirname, '..', '..');

/** `npm start -- coordinator-api` on embedded defaults: embedded Postgres, dev chain, generated admin token. */
describe('local stack launcher', () => {
  it('serves /healthz and /openapi.json on embedded defaults and stops cleanly on SIGINT', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'stack-'));
    const port = await freePort();
    const child = spawn(process.execPath, ['-r', '@swc-node/register', 'tools/stack/main.ts', 'coordinator-api'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        COORDINATOR_PORT: String(port),
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
