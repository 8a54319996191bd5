/**
 * `npm start [-- app …]`: the whole stack on one machine with embedded defaults (embedded Postgres,
 * the dev chain, no stake check, a generated admin token), each app as its own process.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { keypairFromUri } from '@rcs/auth';
import { CHAIN_ENV_NAMES, chainConfigFromEnv } from '@rcs/chain';
import { STACK_APPS, StackApp } from './apps';
import { banner } from './banner';
import { anchorDevChain } from './dev-chain-anchor';
import { acquireStackLock, assertPortsFree, stackFiles } from './guard';
import { STACK_NETUID, stackDevChainSeed } from './pool-miners';
import type { StackState } from './state';
import { StackError, redisAnswers, redisServerInstalled, startRedis } from './redis';
import { runnerSandboxProblem } from './sandbox-check';
import { DEFAULT_WEB_PORT, startWeb } from './web';

const ROOT = join(__dirname, '..', '..');
// Generous: a loaded machine compiles and migrates slowly, and the launcher says what it waits for.
const HEALTH_TIMEOUT_MS = 300_000;
const RUNNER = 'validator-runner';

interface Running {
  app: StackApp;
  child: ChildProcess;
  url: string;
}

function selectApps(args: string[]): StackApp[] {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(
      `usage: npm start [-- app ...]\n\napps: ${STACK_APPS.map((a) => a.name).join(', ')} (default: all)\n` +
        'Environment variables override every default (see docs/configuration.md).\n',
    );
    process.exit(0);
  }
  if (args.length === 0) return STACK_APPS;
  const unknown = args.filter((name) => !STACK_APPS.some((app) => app.name === name));
  if (unknown.length > 0) {
    throw new StackError(`unknown app ${unknown.join(', ')}; known: ${STACK_APPS.map((a) => a.name).join(', ')}`);
  }
  return STACK_APPS.filter((app) => args.includes(app.name));
}

/** The local validator's key: the well-known development key, allowlisted by the local coordinator. */
const DEV_VALIDATOR_URI = '//Alice';

/** Embedded defaults; anything the operator exported wins. */
async function stackEnvironment(): Promise<{ env: NodeJS.ProcessEnv; generatedAdminToken: string | null }> {
  const generatedAdminToken = process.env.ADMIN_TOKENS ? null : randomBytes(24).toString('hex');
  const validatorUri = process.env.VALIDATOR_SECRET_URI ?? DEV_VALIDATOR_URI;
  const validatorKeyed = Boolean(process.env.VALIDATOR_MNEMONIC || process.env.BT_WALLET_NAME);
  const validatorHotkey = validatorKeyed ? null : (await keypairFromUri(validatorUri)).address;
  const coordinatorPort = process.env.COORDINATOR_PORT ?? '8000';
  const env: NodeJS.ProcessEnv = {
    CHAIN: 'dev',
    NETUID: STACK_NETUID,
    STAKE_CHECK: 'off',
    // The pool's stake gate off too (any key may mine, as a newcomer's scripts do); owners still group miners.
    POOL_STAKE_CHECK: 'off',
    // 10-s windows: room for a scripted round's batches within one (DECISIONS.md §11 decides 6 per owner per window).
    POOL_BATCHES_PER_WINDOW: '30',
    HOST: '127.0.0.1',
    REDIS_URL: 'redis://127.0.0.1:6379',
    COORDINATOR_URL: `http://127.0.0.1:${coordinatorPort}`,
    // The local runner replays tasks whose repository is a directory on this machine, in the bwrap sandbox.
    ALLOW_LOCAL_REPOSITORIES: 'true',
    SANDBOX: 'bwrap',
    // Artifacts (the demo's ternary round) served over plain HTTP on this machine: the coordinator accepts
    // http:// URIs on loopback and private addresses, and the runner downloads from them. Local stacks only.
    ALLOW_INSECURE_ARTIFACT_URIS: 'true',
    ALLOW_PRIVATE_ARTIFACT_HOSTS: 'true',
    RUNNER_SCAN_INTERVAL_SECONDS: '2',
    // A few cifar10_binary algorithms, so that a pool miner gets work on a fresh stack.
    POOL_SEED_FILE: 'apps/pool-service/seeds/cifar10_binary.json',
    // Epochs a newcomer can watch: 1 s blocks, a window of 10 blocks, published by the dev key, claims simulated
    // (the pool refuses CLAIM_SIMULATION on a real chain, so only the dev chain's stack turns it on).
    DEV_CHAIN_BLOCK_TIME_MS: '1000',
    POOL_WINDOW_BLOCKS: '10',
    POOL_EPOCH_CHECK_SECONDS: '2',
    PUBLISHER_SECRET_URI: DEV_VALIDATOR_URI,
    ...((process.env.CHAIN ?? 'dev') === 'dev' ? { CLAIM_SIMULATION: 'true' } : {}),
    ...(generatedAdminToken ? { ADMIN_TOKENS: generatedAdminToken } : {}),
    ...(validatorHotkey ? { VALIDATOR_SECRET_URI: validatorUri, VALIDATOR_HOTKEYS: validatorHotkey } : {}),
    // The weight setter sets weights from the local validator, which needs a uid on the dev chain; the pool
    // miners of the stack's tools have owners, two of them one owner, so the pool has owners to group by.
    DEV_CHAIN_SEED: JSON.stringify(await stackDevChainSeed(validatorHotkey)),
    WEIGHTS_INTERVAL_SECONDS: '30',
    // The payout verifier checks each 10-s epoch soon after the pool publishes it, reading the pool where this stack runs it.
    POOL_URL: `http://127.0.0.1:${process.env.POOL_PORT ?? '8434'}`,
    VERIFIER_INTERVAL_SECONDS: '5',
    // Commit-reveal as on every real subnet, with 11-block epochs: a commit is revealed within about 20 s.
    DEV_CHAIN_TEMPO: '10',
    // Readable lines for a person at a terminal; deployments keep the JSON default.
    LOG_FORMAT: 'pretty',
    WEB_URL: `http://127.0.0.1:${process.env.WEB_PORT ?? DEFAULT_WEB_PORT}`,
    ...process.env,
  };
  return { env, generatedAdminToken };
}

async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(2000) });
    return true;
  } catch {
    return false;
  }
}

/** Polls the app's health route until it answers (the launcher said once what it waits for). */
async function waitHealthy(running: Running): Promise<void> {
  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (running.child.exitCode !== null) {
      throw new StackError(`${running.app.name} exited with code ${running.child.exitCode} before it was healthy`);
    }
    try {
      const response = await fetch(`${running.url}${running.app.healthPath}`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new StackError(`${running.app.name} was not healthy at ${running.url} within ${HEALTH_TIMEOUT_MS / 1000} s`);
}

function startApp(app: StackApp, env: NodeJS.ProcessEnv): Running {
  const port = appPort(app, env);
  const child = spawn(process.execPath, ['-r', '@swc-node/register', join('apps', app.name, 'src', 'main.ts')], {
    cwd: ROOT,
    env: { ...env, [app.portVariable]: String(port) },
    // The IPC channel tells the service the launcher supervises it (runService, @rcs/http): Ctrl-C is
    // then the launcher's to answer, and the service stops when the launcher is gone, however it went.
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return { app, child, url: `http://${localHost(env)}:${port}` };
}

function appPort(app: StackApp, env: NodeJS.ProcessEnv): number {
  return Number(env[app.portVariable] ?? app.defaultPort);
}

/** Where this machine reaches the apps. */
function localHost(env: NodeJS.ProcessEnv): string {
  return env.HOST === '0.0.0.0' || !env.HOST ? '127.0.0.1' : env.HOST;
}

/**
 * The runner needs its sandbox; without it the rest of the stack still runs. Asked for by name, it must start.
 * Answers the apps to start and, when the runner is left out, why.
 */
function withRunnerIfPossible(apps: StackApp[], env: NodeJS.ProcessEnv, named: boolean): { apps: StackApp[]; runnerSkipped: string | null } {
  if (!apps.some((app) => app.name === RUNNER)) return { apps, runnerSkipped: null };
  const problem = runnerSandboxProblem(env);
  if (problem === null) return { apps, runnerSkipped: null };
  if (named) throw new StackError(`${RUNNER} cannot start: ${problem}`);
  return { apps: apps.filter((app) => app.name !== RUNNER), runnerSkipped: problem };
}

function stopAll(children: ChildProcess[], signal: NodeJS.Signals): Promise<void> {
  const alive = children.filter((child) => child.exitCode === null && child.signalCode === null);
  return Promise.all(
    alive.map(
      (child) =>
        new Promise<void>((resolve) => {
          const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
          child.once('exit', () => {
            clearTimeout(force);
            resolve();
          });
          child.kill(signal);
        }),
    ),
  ).then(() => undefined);
}

/** The Redis at REDIS_URL, or a redis-server started there with its append-only file in `dir` (answered, for the stack to stop). */
async function ensureRedis(redisUrl: string, dir: string): Promise<ChildProcess | null> {
  if (await redisAnswers(redisUrl)) return null;
  if (!redisServerInstalled()) {
    throw new StackError(
      `nothing answers at REDIS_URL=${redisUrl} and redis-server is not installed.\n` +
        '  Start Redis yourself (e.g. the redis-server package of your distribution) or set REDIS_URL to one that runs.',
    );
  }
  process.stdout.write(`stack: no Redis at ${redisUrl}; starting redis-server with its append-only file in ${dir}\n`);
  return startRedis(redisUrl, dir);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const selected = selectApps(args);
  const { env, generatedAdminToken } = await stackEnvironment();
  const files = stackFiles(env);
  // First of all: a second launcher on a running stack refuses here and touches nothing of it.
  const releaseLock = acquireStackLock(files);
  let apps: StackApp[];
  let runnerSkipped: string | null;
  try {
    ({ apps, runnerSkipped } = withRunnerIfPossible(selected, env, args.length > 0));
    await assertPortsFree(apps.map((app) => ({ app: app.name, variable: app.portVariable, host: localHost(env), port: appPort(app, env) })));
  } catch (error) {
    releaseLock();
    throw error;
  }
  if (runnerSkipped) process.stdout.write(`stack: not starting ${RUNNER}: ${runnerSkipped}\n`);
  const redisUrl = env.REDIS_URL as string;
  let redis: ChildProcess | null;
  try {
    redis = await ensureRedis(redisUrl, join(files.dataDir, 'redis'));
  } catch (error) {
    releaseLock();
    throw error;
  }
  if (env.CHAIN === 'dev') {
    // Before any app counts a block: DATA_DIR's databases and the dev chain in Redis must belong together.
    try {
      await anchorDevChain(files.dataDir, chainConfigFromEnv(env).devStore);
    } catch (error) {
      if (redis) await stopAll([redis], 'SIGTERM');
      releaseLock();
      throw error;
    }
  }

  const running = apps.map((app) => startApp(app, env));
  let stopping = false;
  const shutdown = async (signal: NodeJS.Signals, code: number) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\nstack: stopping (${signal})…\n`);
    // Tier by tier (StackApp.stopTier): an app stops while everything it reads from still answers.
    for (const tier of [0, 1, 2]) {
      await stopAll(
        running.filter((r) => r.app.stopTier === tier).map((r) => r.child),
        'SIGTERM',
      );
    }
    if (redis) await stopAll([redis], 'SIGTERM');
    releaseLock();
    process.stdout.write('stack: stopped\n');
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown('SIGINT', 0));
  process.on('SIGTERM', () => void shutdown('SIGTERM', 0));
  for (const r of running) {
    r.child.once('exit', (code, signal) => {
      if (stopping) return;
      process.stderr.write(`stack: ${r.app.name} exited (${signal ?? code}); stopping the rest\n`);
      void shutdown('SIGTERM', 1);
    });
  }

  process.stdout.write(`stack: starting ${running.map((r) => r.app.name).join(', ')}; waiting until each answers\n`);
  try {
    await Promise.all(running.map(waitHealthy));
  } catch (err) {
    process.stderr.write(`stack: ${err instanceof Error ? err.message : String(err)}\n`);
    await shutdown('SIGTERM', 1);
    return;
  }
  const coordinator = running.find((r) => r.app.name === 'coordinator-api');
  const urlOf = (name: string): string | null => running.find((r) => r.app.name === name)?.url ?? null;
  const web = await startWeb(localHost(env), env.WEB_PORT, {
    coordinator: coordinator?.url ?? (env.COORDINATOR_URL as string),
    pool: urlOf('pool-service') ?? `http://${localHost(env)}:${env.POOL_PORT ?? 8434}`,
    weight_setter: urlOf('weight-setter'),
    validator_runner: urlOf('validator-runner'),
  });
  const state: StackState = {
    coordinator_url: coordinator?.url ?? env.COORDINATOR_URL,
    admin_token: (env.ADMIN_TOKENS ?? '').split(',')[0],
    pool_url: urlOf('pool-service'),
    weight_setter_url: urlOf('weight-setter'),
    validator_runner_url: urlOf('validator-runner'),
    web_url: web.server?.url ?? null,
    chain_env: Object.fromEntries(CHAIN_ENV_NAMES.flatMap((name) => (env[name] ? [[name, env[name]]] : []))),
    pid: process.pid,
  };
  writeFileSync(files.state, JSON.stringify(state, null, 2), { mode: 0o600 });
  process.stdout.write(
    banner({
      services: running.map((r) => ({ name: r.app.name, url: r.url })),
      // Served here, or the line saying why not (a busy port, a failed build).
      webUrl: web.server ? web.server.url : web.line.replace(/^web UI: /, ''),
      webAnswers: web.server ? await answers(web.server.url) : true,
      generatedAdminToken,
      chain: env.CHAIN ?? '',
      stakeCheck: `coordinator ${env.STAKE_CHECK ?? 'on'}, pool ${env.POOL_STAKE_CHECK ?? 'on'}${env.POOL_STAKE_CHECK === 'off' ? ' (any key may mine: local only)' : ''}`,
      redis: `${redisUrl}${redis ? ' (started by the stack)' : ''}`,
      validators: env.VALIDATOR_HOTKEYS ?? null,
      sandbox: env.SANDBOX ?? '',
      runnerSkipped,
      statePath: files.state,
    }),
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`stack: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
