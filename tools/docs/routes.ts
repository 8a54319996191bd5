/**
 * docs/routes.md from the booted apps: each service is started from its own `main.ts` with
 * tools/docs/route-probe.ts preloaded, on the dev chain, an embedded Postgres in a temporary
 * `DATA_DIR` and the test Redis (`TEST_REDIS_URL`) under a key prefix of its own; the probe writes the
 * routes Fastify registered once the app listens (and the variables its code read, for
 * docs/configuration.md), and the service is stopped. Source maps on, so reads are placed by their
 * TypeScript line.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childProcessBaseEnv, createTestRedis, REPO_ROOT } from '@rcs/testing';
import type { ProbedRoute, ProbeResult } from './route-probe';

interface ProbedApp {
  name: string;
  entry: string;
  portVariable: string;
  /** Besides the shared settings: what makes the app boot here and show every route it can serve. */
  env: NodeJS.ProcessEnv;
  /** Said under the app's heading. */
  note: string;
}

const APPS: ProbedApp[] = [
  { name: 'coordinator-api', entry: 'apps/coordinator-api/src/main.ts', portVariable: 'COORDINATOR_PORT', env: { STAKE_CHECK: 'off' }, note: '' },
  {
    name: 'pool-service',
    entry: 'apps/pool-service/src/main.ts',
    portVariable: 'POOL_PORT',
    env: { POOL_STAKE_CHECK: 'off', CLAIM_SIMULATION: 'true' },
    note: 'Booted with `CLAIMS_ENABLED=true` (the default) and `CLAIM_SIMULATION=true` (dev chain only), so the claim routes under `CLAIMS_MOUNT_PREFIX` (default `/claims`) and the simulated claim routes are listed.',
  },
  {
    name: 'validator-runner',
    entry: 'apps/validator-runner/src/main.ts',
    portVariable: 'VALIDATOR_RUNNER_PORT',
    // No sandbox is used while the routes are read; a coordinator that does not answer only fails its scans.
    env: { SANDBOX: 'none', SANDBOX_ALLOW_NONE: 'true', COORDINATOR_URL: 'http://127.0.0.1:9' },
    note: '',
  },
  { name: 'weight-setter', entry: 'apps/weight-setter/src/main.ts', portVariable: 'WEIGHT_SETTER_PORT', env: { COORDINATOR_URL: 'http://127.0.0.1:9' }, note: '' },
  {
    name: 'payout-verifier',
    entry: 'apps/payout-verifier/src/main.ts',
    portVariable: 'PAYOUT_VERIFIER_PORT',
    env: { COORDINATOR_URL: 'http://127.0.0.1:9', POOL_URL: 'http://127.0.0.1:9', VERIFIER_INTERVAL_SECONDS: '0' },
    note: '',
  },
];

const BOOT_TIMEOUT_MS = 240_000;

export class RouteProbeError extends Error {
  constructor(app: string, reason: string, output: string) {
    super(`${app}: ${reason}\n${output.slice(-4000)}`);
    this.name = 'RouteProbeError';
  }
}

async function probe(app: ProbedApp, redis: { url: string; prefix: string }, dir: string): Promise<ProbeResult> {
  const out = join(dir, `${app.name}.json`);
  const child = spawn(process.execPath, ['--enable-source-maps', '-r', '@swc-node/register', '-r', join(__dirname, 'route-probe.ts'), app.entry], {
    cwd: REPO_ROOT,
    env: {
      ...childProcessBaseEnv(),
      CHAIN: 'dev',
      NETUID: '1',
      VALIDATOR_SECRET_URI: '//Alice',
      HOST: '127.0.0.1',
      [app.portVariable]: '0',
      LOG_LEVEL: 'warn',
      DATA_DIR: join(dir, app.name),
      REDIS_URL: redis.url,
      REDIS_KEY_PREFIX: `${redis.prefix}-${app.name}`,
      ROUTE_PROBE_OUT: out,
      ...app.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + BOOT_TIMEOUT_MS;
  try {
    while (!existsSync(out)) {
      if (child.exitCode !== null || child.signalCode !== null) throw new RouteProbeError(app.name, `exited (${child.exitCode ?? child.signalCode}) before it listened`, output);
      if (Date.now() > deadline) throw new RouteProbeError(app.name, `did not listen within ${BOOT_TIMEOUT_MS / 1000} s`, output);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return JSON.parse(readFileSync(out, 'utf8')) as ProbeResult;
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(killer);
  }
}

/** Every HTTP app booted, one after another (each boot is CPU-heavy): its routes and the variables it read. */
export async function probeApps(): Promise<Map<string, ProbeResult>> {
  const redis = await createTestRedis();
  const dir = mkdtempSync(join(tmpdir(), 'rcs-docs-routes-'));
  try {
    const results = new Map<string, ProbeResult>();
    for (const app of APPS) results.set(app.name, await probe(app, redis, dir));
    return results;
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await redis.cleanup();
  }
}

const cell = (text: string): string => text.replace(/\|/g, '\\|');

/** The generated part of docs/routes.md: per app, one table sorted by path then method. */
export function renderRoutes(probed: Map<string, ProbeResult>): string {
  const parts: string[] = [];
  for (const app of APPS) {
    const rows: ProbedRoute[] = [...(probed.get(app.name)?.routes ?? [])].sort((a, b) => (a.path === b.path ? a.method.localeCompare(b.method) : a.path < b.path ? -1 : 1));
    parts.push(`## ${app.name}\n`);
    if (app.note) parts.push(`${app.note}\n`);
    parts.push('| method | path | auth class | source |', '|---|---|---|---|');
    for (const route of rows) {
      const source = route.controller ? `\`${route.source ?? '?'}\` (${route.controller})` : route.source ? `\`${route.source}\`` : '?';
      parts.push(`| ${route.method} | \`${cell(route.path)}\` | ${route.authClass ?? '—'} | ${cell(source)} |`);
    }
    parts.push('');
  }
  return parts.join('\n');
}
