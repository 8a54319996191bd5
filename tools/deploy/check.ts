/**
 * `npm run deploy:check`: the deployment run for real on this machine. Builds the images (and the
 * local base stand-ins when the real ones cannot be pulled), brings the compose stack up on a free
 * port of 127.0.0.1, and checks it through the gateway: readiness, host routing, the demo round
 * replayed by the validator runner container in sibling sandbox containers, a ternary pack submission
 * (examples/competitions: a packed artifact over HTTP) replayed the same way, a scripted round, an
 * abrupt coordinator restart that loses no acknowledged submission, two replicas under bursts of
 * claims and submissions, repeatable jobs once per interval, body and rate limits, /metrics kept
 * private, the web UI host and its security headers (and the web image's). Tears everything down
 * (containers, networks, volumes) whatever happens.
 * Prints one line per check and `deploy:check: N passed, N failed`; exits 1 on any failure.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { BtAuthSigner, cryptoReady, keypairFromUri } from '@rcs/auth';
import { freePort, pythonNumpyProblem } from '@rcs/testing';
import { runDemo, type DemoOptions } from '../demo/demo';
import { runTernaryRound } from '../demo/ternary';
import { webSecurityHeaders } from '../stack/web-security';
import { createRepository, git, RoundClient, runRound, TRAIN_PY } from '../round/round';
import { ComposeProject, docker } from './compose';
import { resolveLocalhostSubdomains } from './localhost-dns';

const ROOT = resolve(__dirname, '..', '..');
/** The check's claim, lease and assignment sweep interval: repeatable jobs it counts per interval. */
const SWEEP_SECONDS = 2;
/** The benchmark image the runner's docker sandbox uses here (deploy/docker/local-base.sh sandbox). */
const SANDBOX_IMAGE = 'rcs-local/sandbox:2';
const run = promisify(execFile);
/** The dev chain's clock and the pool's windows in the check (the payout verifier reads the pool's chain with the same clock). */
const DEV_EPOCHS = { DEV_CHAIN_BLOCK_TIME_MS: '1000', POOL_WINDOW_BLOCKS: '10' };

interface Outcome {
  name: string;
  ok: boolean;
}
const outcomes: Outcome[] = [];

class CheckFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CheckFailed';
  }
}

function expectThat(condition: boolean, message: string): void {
  if (!condition) throw new CheckFailed(message);
}

/** Runs one check, prints its line; a fatal check stops the run (teardown still happens). */
async function check(name: string, body: () => Promise<string | void>, fatal = false): Promise<void> {
  const started = Date.now();
  try {
    const note = await body();
    outcomes.push({ name, ok: true });
    process.stdout.write(`ok   ${name}${note ? ` — ${note}` : ''} (${seconds(started)} s)\n`);
  } catch (error) {
    outcomes.push({ name, ok: false });
    process.stdout.write(`FAIL ${name}: ${error instanceof Error ? error.message : String(error)} (${seconds(started)} s)\n`);
    if (fatal) throw new CheckFailed(`stopping after: ${name}`);
  }
}

function seconds(since: number): string {
  return ((Date.now() - since) / 1000).toFixed(1);
}

/** Polls `probe` until it answers true, at most `timeoutMs`. */
async function waitUntil(what: string, timeoutMs: number, probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) throw new CheckFailed(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

async function imageExists(image: string): Promise<boolean> {
  return docker('image', 'inspect', image).then(
    () => true,
    () => false,
  );
}

async function script(path: string, env: Record<string, string | undefined> = {}): Promise<string> {
  // env(1) adds the settings to the inherited environment.
  const settings = Object.entries(env).flatMap(([name, value]) => (value === undefined ? [] : [`${name}=${value}`]));
  const { stdout, stderr } = await run('env', [...settings, 'bash', path], { cwd: ROOT, timeout: 1_800_000, maxBuffer: 64 << 20 });
  return `${stdout}${stderr}`;
}

async function main(): Promise<number> {
  const started = Date.now();
  resolveLocalhostSubdomains();
  await cryptoReady();
  const tag = `check-${(await run('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT })).stdout.trim()}`;
  const images: Record<string, string> = {};
  const work = mkdtempSync(join(tmpdir(), 'deploy-check-'));
  const name = `rcscheck${process.pid}`;
  // The check's own additions, never needed by operators: short sweep intervals (repeatable jobs run
  // often enough to count), and the gateway known by the public host names inside the stack's
  // network, so the runner container reaches the coordinator through it as a validator would.
  const overrides = join(work, 'check.override.yml');
  writeFileSync(
    overrides,
    JSON.stringify({
      services: {
        coordinator: { environment: { CLAIM_SWEEP_INTERVAL_SECONDS: String(SWEEP_SECONDS), LEASE_SWEEP_INTERVAL_SECONDS: String(SWEEP_SECONDS) } },
        // The pool publishes an epoch every 10 one-second blocks, so the payout verifier has epochs to judge.
        pool: { environment: { POOL_ASSIGNMENT_SWEEP_SECONDS: String(SWEEP_SECONDS), ...DEV_EPOCHS, PUBLISHER_SECRET_URI: '//Alice', POOL_PUBLIC_URL: 'http://pool:8434' } },
        gateway: { networks: { default: { aliases: ['coordinator.localhost', 'pool.localhost'] } } },
      },
    }),
  );
  const project = new ComposeProject(ROOT, name, join(work, 'check.env'), ['docker-compose.yml', overrides]);
  const validator = new BtAuthSigner(await keypairFromUri('//DeployCheckValidator'));
  let upStarted = false;
  try {
    await check('docker engine answers', async () => `server ${await docker('version', '-f', '{{.Server.Version}}')}`, true);

    await check(
      'base images (real ones when present, else the local stand-ins)',
      async () => {
        const wanted: [string, string, string][] = [
          ['NODE_IMAGE', 'node:20-bookworm-slim', 'node:20-bookworm-slim'],
          ['POSTGRES_IMAGE', 'postgres:16', 'rcs-local/postgres:15'],
          ['REDIS_IMAGE', 'redis:7', 'rcs-local/redis:7'],
          ['NGINX_IMAGE', 'nginx:1.27', 'rcs-local/nginx:1.22'],
        ];
        const missing: string[] = [];
        for (const [variable, real, standIn] of wanted) {
          images[variable] = (await imageExists(real)) ? real : standIn;
          if (!(await imageExists(images[variable] as string))) missing.push(variable.replace('_IMAGE', '').toLowerCase());
        }
        if (!(await imageExists(SANDBOX_IMAGE))) missing.push('sandbox');
        if (missing.length > 0) {
          const output = await run('bash', ['deploy/docker/local-base.sh', ...missing], { cwd: ROOT, timeout: 1_800_000, maxBuffer: 64 << 20 });
          process.stdout.write(output.stderr);
        }
        return [...Object.values(images), SANDBOX_IMAGE].join(', ');
      },
      true,
    );

    await check(
      'app images build',
      async () => {
        const output = await script('deploy/docker/build-images.sh', { IMAGE_TAG: tag, NODE_IMAGE: images.NODE_IMAGE, NGINX_IMAGE: images.NGINX_IMAGE });
        const sizes = output.split('\n').filter((line) => line.startsWith('[images]'));
        process.stdout.write(`${sizes.join('\n')}\n`);
        expectThat(sizes.length === 6, `expected six images (five apps and web), got:\n${output}`);
      },
      true,
    );

    const port = await freePort();
    const adminToken = randomBytes(24).toString('hex');
    const env = {
      IMAGE_TAG: tag,
      ...images,
      POSTGRES_PASSWORD: randomBytes(16).toString('hex'),
      COORDINATOR_DB_PASSWORD: randomBytes(16).toString('hex'),
      POOL_DB_PASSWORD: randomBytes(16).toString('hex'),
      ADMIN_TOKENS: adminToken,
      CHAIN: 'dev',
      NETUID: '1',
      STAKE_CHECK: 'off',
      VALIDATOR_HOTKEYS: validator.hotkey,
      WEIGHT_SETTER_SECRET_URI: '//Bob',
      WEIGHTS_DRY_RUN: 'true',
      GATEWAY_BIND: '127.0.0.1',
      GATEWAY_PORT: String(port),
      LOG_LEVEL: 'warn',
      // The ternary replay's artifact is served over http:// from this host's address on the stack network (check only).
      ALLOW_INSECURE_ARTIFACT_URIS: 'true',
    };
    writeFileSync(project.envFile, Object.entries(env).map(([k, v]) => `${k}=${v}`).join('\n') + '\n', { mode: 0o600 });
    const coordinator = `http://coordinator.localhost:${port}`;
    const pool = `http://pool.localhost:${port}`;

    await check(
      'compose stack up (Postgres with a database per service, Redis AOF, coordinator, pool, weight setter, gateway)',
      async () => {
        upStarted = true;
        await project.compose(['up', '-d', '--no-build'], { stream: true });
        await waitUntil('the coordinator /readyz through the gateway', 240_000, async () => (await fetch(`${coordinator}/readyz`)).status === 200);
        await waitUntil('the pool /readyz through the gateway', 240_000, async () => (await fetch(`${pool}/readyz`)).status === 200);
        return `gateway on 127.0.0.1:${port}`;
      },
      true,
    );

    await check('coordinator /readyz through the gateway: database, Redis and chain ok', async () => {
      const response = await fetch(`${coordinator}/readyz`);
      const body = (await response.json()) as { checks: Record<string, { ok: boolean }> };
      expectThat(response.status === 200 && body.checks.database?.ok === true && body.checks.redis?.ok === true && body.checks.chain?.ok === true, JSON.stringify(body));
    });

    await check('pool /readyz through the gateway: database, Redis and chain ok', async () => {
      const response = await fetch(`${pool}/readyz`);
      const body = (await response.json()) as { checks: Record<string, { ok: boolean }> };
      expectThat(response.status === 200 && body.checks.database?.ok === true && body.checks.redis?.ok === true && body.checks.chain?.ok === true, JSON.stringify(body));
    });

    await check('host routing: coordinator.* and pool.* reach their service, an unknown host is a 404 in the error shape', async () => {
      const viaCoordinator = await fetch(`${coordinator}/healthz`);
      const viaPool = await fetch(`${pool}/healthz`);
      const services = [((await viaCoordinator.json()) as { service: string }).service, ((await viaPool.json()) as { service: string }).service];
      expectThat(services[0] === 'coordinator-api' && services[1] === 'pool-service', JSON.stringify(services));
      const unknown = await fetch(`http://other.localhost:${port}/api/v1/tasks`);
      const body = (await unknown.json()) as { detail: { error: string } };
      expectThat(unknown.status === 404 && body.detail.error === 'unknown_host', `${unknown.status} ${JSON.stringify(body)}`);
    });

    await check('app containers: healthy (image HEALTHCHECK), uid 1000, read-only root, no capabilities, tini as PID 1, LOG_FORMAT=json', async () => {
      const notes: string[] = [];
      for (const service of ['coordinator', 'pool', 'weight-setter']) {
        const id = await project.containerId(service);
        await waitUntil(`${service} healthy`, 120_000, async () => (await docker('inspect', '-f', '{{.State.Health.Status}}', id)) === 'healthy');
        const [user, readOnly, capDrop] = (await docker('inspect', '-f', '{{.Config.User}}|{{.HostConfig.ReadonlyRootfs}}|{{.HostConfig.CapDrop}}', id)).split('|');
        expectThat(user === '1000:1000' && readOnly === 'true' && capDrop === '[ALL]', `${service}: ${user} ${readOnly} ${capDrop}`);
        const pid1 = await docker('exec', id, 'cat', '/proc/1/cmdline');
        expectThat(pid1.startsWith('/usr/bin/tini'), `${service}: PID 1 is ${pid1}`);
        const environment = await docker('inspect', '-f', '{{json .Config.Env}}', id);
        expectThat((JSON.parse(environment) as string[]).includes('LOG_FORMAT=json'), `${service}: no LOG_FORMAT=json in ${environment}`);
        notes.push(service);
      }
      return notes.join(', ');
    });

    const demoLines: string[] = [];
    // The runner container, its work folder and the repositories it clones serve the demo round and the ternary replay; down after both.
    const runnerWork = mkdtempSync(join(tmpdir(), 'deploy-check-runner-'));
    const repositories = mkdtempSync(join(tmpdir(), 'deploy-check-repos-'));
    chmodSync(repositories, 0o755);
    const runner = new ComposeProject(ROOT, `${name}runner`, join(work, 'runner.env'), ['deploy/runner/docker-compose.yml', join(work, 'runner.override.yml')]);
    const runnerLogs = () => runner.compose(['logs', '--no-color', '--tail', '80', 'runner'], { stream: true }).catch(() => undefined);
    // What the demo round and the ternary round both play with: two fresh miners, the runner's repositories, five minutes a decision.
    const runnerRound = async (label: string, lines: string[]): Promise<DemoOptions> => {
      const seed = randomBytes(8).toString('hex');
      const miners = await Promise.all([1, 2].map(async (n) => new BtAuthSigner(await keypairFromUri(`//${label}-${seed}/${n}`))));
      return { url: coordinator, adminToken, miners: miners as [BtAuthSigner, BtAuthSigner], decisionTimeoutMs: 300_000, log: (line) => lines.push(line), repositoryParent: repositories };
    };
    try {
      await check(
        'demo round through the gateway, replayed by the validator runner container (deploy/runner compose, docker sandbox in --network none siblings): decisions and the reward snapshot',
        async () => {
          // The demo's repositories are local folders: the runner sees them read-only at the same path. The ternary
          // replay's artifact comes over plain HTTP from this host on the stack network's gateway address: allowed
          // for the check only (a validator downloads artifacts over https from public hosts).
          writeFileSync(
            join(work, 'runner.override.yml'),
            JSON.stringify({
              services: {
                runner: {
                  // On two networks, `redis` could name the stack's: the runner's own is asked for by a name of its own.
                  environment: {
                    ALLOW_LOCAL_REPOSITORIES: 'true',
                    RUNNER_SCAN_INTERVAL_SECONDS: '1',
                    REDIS_URL: 'redis://runner-redis:6379',
                    ALLOW_INSECURE_ARTIFACT_URIS: 'true',
                    ALLOW_PRIVATE_ARTIFACT_HOSTS: 'true',
                  },
                  volumes: [`${repositories}:${repositories}:ro`],
                  networks: ['default', 'stack'],
                },
                redis: { networks: { default: { aliases: ['runner-redis'] } } },
                // The payout verifier (the `verifier` profile) reads the stack's pool, coordinator and dev chain
                // (the pool's, in the stack's Redis under the pool's prefix) on the stack's network only.
                'payout-verifier': {
                  // Its verdicts in a database of the stack's Postgres (a validator gives it its own, or the embedded one on the volume).
                  environment: {
                    REDIS_URL: 'redis://redis:6379',
                    REDIS_KEY_PREFIX: 'pool',
                    ...DEV_EPOCHS,
                    VERIFIER_INTERVAL_SECONDS: '2',
                    VERIFIER_DATABASE_URL: `postgres://postgres:${env.POSTGRES_PASSWORD}@postgres:5432/verifier`,
                  },
                  networks: ['stack'],
                },
              },
              networks: { stack: { external: true, name: `${name}_default` } },
            }),
          );
          const socketGid = (await run('stat', ['-c', '%g', '/var/run/docker.sock'])).stdout.trim();
          const runnerEnv = {
            IMAGE_TAG: tag,
            REDIS_IMAGE: images.REDIS_IMAGE,
            COORDINATOR_URL: 'http://coordinator.localhost',
            VALIDATOR_SECRET_URI: '//DeployCheckValidator',
            SANDBOX_DOCKER_IMAGE: SANDBOX_IMAGE,
            RUNNER_WORK_DIR: runnerWork,
            DOCKER_GID: socketGid,
            POOL_URL: 'http://pool:8434',
            CHAIN: 'dev',
            NETUID: '1',
            LOG_LEVEL: 'info',
          };
          writeFileSync(runner.envFile, Object.entries(runnerEnv).map(([k, v]) => `${k}=${v}`).join('\n') + '\n', { mode: 0o600 });
          await run('chown', ['1000:1000', runnerWork]);
          const since = String(Math.floor(Date.now() / 1000));
          try {
            await psql(project, 'postgres', 'CREATE DATABASE verifier');
            await runner.compose(['--profile', 'verifier', 'up', '-d', '--no-build'], { stream: true });
            const id = await runner.containerId('runner');
            await waitUntil('the runner healthy', 120_000, async () => (await docker('inspect', '-f', '{{.State.Health.Status}}', id)) === 'healthy');
            // The demo's repositories are local folders owned by root here, and git refuses to clone another
            // user's repository; a validator clones over https, so this exception exists only in the check.
            await docker('exec', id, 'git', 'config', '--global', '--add', 'safe.directory', '*');
            const engine = await docker('exec', id, 'docker', 'version', '-f', '{{.Server.Version}}');
            // A sibling started as the docker sandbox starts them: no route anywhere but loopback.
            const probe = "require('net').connect(443, '192.0.2.1').on('error', (e) => { console.log('refused ' + e.code); process.exit(0); }).on('connect', () => { console.log('connected'); process.exit(1); })";
            const sibling = await docker('exec', id, 'docker', 'run', '--rm', '--network', 'none', '--read-only', '--cap-drop', 'ALL', SANDBOX_IMAGE, 'node', '-e', probe);
            expectThat(sibling.startsWith('refused'), sibling);
            demoLines.push(`runner: engine ${engine}, a --network none sibling: ${sibling}`);
            const round = await runnerRound('deploy-check', demoLines);
            await runDemo(round);
            const started = await sandboxContainersSince(since);
            expectThat(started.length >= 2, `sandbox containers started: ${started.length}`);
            const accepted = demoLines.flatMap((line) => /^accepted: (\S+) by/.exec(line)?.slice(1) ?? []);
            const api = new RoundClient(coordinator, adminToken, round.miners[0]);
            const detail = await api.send('first submission detail', 'GET', `/api/v1/submissions/${accepted[0] ?? 'none'}/detail`, 200, { auth: 'signed' });
            const verifiers = (detail.verifications as { validator_hotkey: string }[]).map((v) => v.validator_hotkey);
            expectThat(verifiers.length === 1 && verifiers[0] === validator.hotkey, `verifications by ${verifiers.join(', ') || 'nobody'}`);
            return `${accepted.length} accepted, ${started.length} sandbox container(s), verified by ${validator.hotkey}`;
          } catch (error) {
            await runnerLogs();
            throw error;
          }
        },
      );
      process.stdout.write(demoLines.map((line) => `       ${line}\n`).join(''));

      await check(
        'payout verifier (deploy/runner compose, `verifier` profile, the validator key): recomputes the pool\'s published epochs from the coordinator\'s snapshots and /status shows one `verified`, none `mismatch`',
        async () => {
          const id = await runner.containerId('payout-verifier');
          type VerifierStatus = { epochs: { verified: number; mismatch: number }; recent: { epoch: number; result: string }[]; last_pass: { error: string | null } | null };
          let status: VerifierStatus | null = null;
          const read = "fetch('http://127.0.0.1:8500/status').then((r) => r.text()).then((t) => process.stdout.write(t))";
          try {
            await waitUntil('an epoch `verified` in the payout verifier\'s /status', 180_000, async () => {
              status = JSON.parse(await docker('exec', id, 'node', '-e', read)) as VerifierStatus;
              return status.epochs.verified >= 1;
            });
          } catch (error) {
            await runner.compose(['logs', '--no-color', '--tail', '40', 'payout-verifier'], { stream: true }).catch(() => undefined);
            throw new CheckFailed(`${error instanceof Error ? error.message : String(error)}; last /status: ${JSON.stringify(status)}`);
          }
          const seen = status as VerifierStatus | null;
          expectThat(seen !== null && seen.epochs.mismatch === 0, `mismatches: ${JSON.stringify(seen)}`);
          const verified = seen?.recent.filter((v) => v.result === 'verified').map((v) => v.epoch) ?? [];
          return `${seen?.epochs.verified ?? 0} epoch(s) verified (latest ${verified[0] ?? 'none'}), 0 mismatch`;
        },
      );

      const ternaryLines: string[] = [];
      await check(
        'ternary submission (examples/competitions, centerless, a packed artifact over HTTP from the host) replayed by the runner container in the docker sandbox: accepted with a finite heldout_ppl and compressed_bytes',
        async () => {
          const problem = pythonNumpyProblem();
          expectThat(problem === null, `the miner's side cannot train and pack here: ${problem ?? ''}`);
          // The host's address on the stack's network: the runner container reaches the artifact host there.
          const gateway = await docker('network', 'inspect', '-f', '{{range .IPAM.Config}}{{.Gateway}}{{end}}', `${name}_default`);
          expectThat(/^\d+\.\d+\.\d+\.\d+$/.test(gateway), `no IPv4 gateway on ${name}_default: ${JSON.stringify(gateway)}`);
          const since = String(Math.floor(Date.now() / 1000));
          const round = await runnerRound('deploy-check-ternary', ternaryLines);
          try {
            const [decision] = await runTernaryRound({ ...round, steps: 1, artifactAddress: gateway });
            expectThat(
              decision !== undefined && decision.status === 'accepted' && Number.isFinite(decision.heldoutPpl) && Number.isFinite(decision.compressedBytes),
              `decision: ${JSON.stringify(decision)}`,
            );
            const started = await sandboxContainersSince(since);
            expectThat(started.length >= 1, `sandbox containers started: ${started.length}`);
            return `${decision?.submissionId ?? ''} accepted: heldout_ppl ${decision?.heldoutPpl?.toFixed(3) ?? ''}, compressed_bytes ${decision?.compressedBytes ?? ''}, ${started.length} sandbox container(s)`;
          } catch (error) {
            await runnerLogs();
            throw error;
          }
        },
      );
      process.stdout.write(ternaryLines.map((line) => `       ${line}\n`).join(''));
    } finally {
      await runner.compose(['--profile', 'verifier', 'down', '-v', '--remove-orphans', '-t', '10'], { stream: true }).catch(() => undefined);
      rmSync(runnerWork, { recursive: true, force: true });
      rmSync(repositories, { recursive: true, force: true });
    }

    const signer = new BtAuthSigner(await keypairFromUri('//Alice'));
    const lines: string[] = [];
    await check('scripted round through the gateway (task, signed claim, patch submission, list, detail)', async () => {
      const result = await runRound({ url: coordinator, adminToken, signer, log: (line) => lines.push(line) });
      return `task ${result.taskId}, submission ${result.submissionId}`;
    });
    process.stdout.write(lines.map((line) => `       ${line}\n`).join(''));

    await check('coordinator container restarted abruptly mid-run: every acknowledged submission is still there', async () => {
      const acknowledged: string[] = [];
      let restarted = false;
      let roundsAfterRestart = 0;
      let failedRounds = 0;
      const deadline = Date.now() + 300_000;
      const rounds = (async () => {
        while (roundsAfterRestart === 0 && Date.now() < deadline) {
          const before = restarted;
          try {
            await runRound({ url: coordinator, adminToken, signer, log: (line) => acknowledged.push(...(/^submission: (\S+)/.exec(line)?.slice(1) ?? [])) });
            if (before) roundsAfterRestart += 1;
          } catch {
            failedRounds += 1;
            await new Promise((r) => setTimeout(r, 500)); // pace retries while the coordinator is down
          }
        }
      })();
      await waitUntil('a first acknowledged submission', 120_000, async () => acknowledged.length > 0);
      const id = await project.containerId('coordinator');
      await docker('restart', '-t', '0', id);
      restarted = true;
      await rounds;
      expectThat(roundsAfterRestart > 0, 'no round completed after the restart');
      const api = new RoundClient(coordinator, adminToken, signer);
      for (const submissionId of acknowledged) {
        // A 404 here (any status but 200) is a lost submission: RoundStepError names it.
        await api.send(`submission ${submissionId} after the restart`, 'GET', `/api/v1/submissions/${submissionId}/detail`, 200, { auth: 'signed' });
      }
      return `${acknowledged.length} acknowledged submission(s) all present, ${failedRounds} round(s) failed during the outage`;
    });

    await check('two coordinator and two pool replicas behind the gateway: a burst of 24 concurrent claims of one task by one miner makes one active claim, served by both replicas', async () => {
      await project.compose(['up', '-d', '--no-build', '--no-recreate', '--scale', 'coordinator=2', '--scale', 'pool=2'], { stream: true });
      const ids = (await project.compose(['ps', '-q', 'coordinator'])).trim().split('\n');
      expectThat(ids.length === 2, `coordinator containers: ${ids.length}`);
      for (const id of ids) await waitUntil('both coordinators healthy', 300_000, async () => (await docker('inspect', '-f', '{{.State.Health.Status}}', id)) === 'healthy');
      // A miner of its own: the earlier rounds' claims count against //Alice's per-hotkey claim limit.
      const api = new RoundClient(coordinator, adminToken, new BtAuthSigner(await keypairFromUri('//Charlie')));
      const repo = mkdtempSync(join(tmpdir(), 'deploy-check-burst-'));
      try {
        const baseRef = createRepository(repo);
        const task = await api.send('create task', 'POST', '/api/v1/tasks', 201, {
          auth: 'admin',
          body: {
            slug: `burst-${randomBytes(4).toString('hex')}`, title: 'Burst', brief: 'Burst of claims.', repository: `file://${repo}`, base_ref: baseRef,
            benchmark_command: 'python train.py', result_path: 'result.json', allowed_patch_paths: ['train.py'], metric_name: 'loss',
            metric_direction: 'minimize', competition_mode: 'centerless', time_budget_seconds: 600,
          },
        });
        const since = new Date().toISOString();
        const claims = await Promise.all(
          Array.from({ length: 24 }, () =>
            api.send('claim', 'POST', `/api/v1/tasks/${String(task.id)}/claim`, 201, { auth: 'signed', body: { claim_description: 'A burst of concurrent claims.' } }).then(
              () => 'created',
              (error: unknown) => {
                const message = error instanceof Error ? error.message : String(error);
                if (message.includes('duplicate_active_claim')) return 'duplicate';
                // The designed answer of a replica whose database connection timed out (a loaded machine): retryable, no claim made.
                if (message.includes('(HTTP 503)') && message.includes('database_unavailable')) return 'unavailable';
                return `other: ${message.slice(0, 200)}`;
              },
            ),
          ),
        );
        const created = claims.filter((c) => c === 'created').length;
        const others = claims.filter((c) => c !== 'created' && c !== 'duplicate' && c !== 'unavailable');
        const unavailable = claims.filter((c) => c === 'unavailable').length;
        expectThat(created === 1 && others.length === 0, `created ${created}, unexpected: ${[...new Set(others)].join(' | ')}`);
        const gatewayLog = await docker('logs', '--since', since, await project.containerId('gateway'));
        const upstreams = new Set(
          gatewayLog.split('\n').flatMap((line) => {
            const entry = /"uri":"\/api\/v1\/tasks\/[^"]*\/claim".*"upstream":"([^"]+)"/.exec(line);
            return entry ? [entry[1] as string] : [];
          }),
        );
        expectThat(upstreams.size === 2, `claims reached ${[...upstreams].join(', ') || 'no logged upstream'}`);
        const active = await psql(project, 'coordinator', `SELECT count(*) FROM claims WHERE task_id = '${String(task.id)}' AND status = 'active'`);
        expectThat(active[0]?.[0] === '1', `active claims in Postgres: ${active[0]?.[0] ?? 'none'}`);
        return `1 claim created (1 active in Postgres), ${claims.length - 1 - unavailable} duplicate_active_claim${unavailable ? `, ${unavailable} 503 database_unavailable` : ''}, upstreams ${[...upstreams].join(' and ')}`;
      } finally {
        rmSync(repo, { recursive: true, force: true });
      }
    });

    await check('two replicas: a burst of submissions through the gateway (10 miners, two concurrent submissions on each claim) makes one submission per claim and exactly one validator job per submission', async () => {
      const repo = mkdtempSync(join(tmpdir(), 'deploy-check-submissions-'));
      try {
        const baseRef = createRepository(repo);
        writeFileSync(join(repo, 'train.py'), TRAIN_PY.replace('0.01', '0.03'));
        const patch = git(repo, 'diff', '--binary');
        const admin = new RoundClient(coordinator, adminToken, signer);
        const task = await admin.send('create task', 'POST', '/api/v1/tasks', 201, {
          auth: 'admin',
          body: {
            slug: `submissions-${randomBytes(4).toString('hex')}`, title: 'Burst of submissions', brief: 'Many miners submit at once.', repository: `file://${repo}`, base_ref: baseRef,
            benchmark_command: 'python3 train.py', result_path: 'result.json', allowed_patch_paths: ['train.py'], metric_name: 'loss',
            metric_direction: 'minimize', competition_mode: 'standard', time_budget_seconds: 600,
          },
        });
        const taskId = String(task.id);
        const seed = randomBytes(8).toString('hex');
        const miners = await Promise.all(Array.from({ length: 10 }, async (_, n) => new BtAuthSigner(await keypairFromUri(`//deploy-burst-${seed}/${n}`))));
        const claims = await Promise.all(
          miners.map(async (miner) => {
            // Setup, not the burst: a claim answered 503 database_unavailable (a loaded machine) is asked again, a few times.
            for (let attempt = 1; ; attempt++) {
              try {
                const claim = await admin.send('claim', 'POST', `/api/v1/tasks/${taskId}/claim`, 201, { auth: 'signed', signer: miner, body: { claim_description: 'One of a burst of submissions.' } });
                return { miner, claimId: String(claim.id) };
              } catch (error) {
                if (attempt >= 10 || !(error instanceof Error && error.message.includes('database_unavailable'))) throw error;
                await new Promise((r) => setTimeout(r, 1000)); // Retry-After of the 503
              }
            }
          }),
        );
        const since = new Date().toISOString();
        const answers = await Promise.all(
          claims.flatMap(({ miner, claimId }) =>
            [1, 2].map(async (n) => {
              const response = await fetch(`${coordinator}/api/v1/submissions`, {
                method: 'POST',
                headers: { 'content-type': 'application/json', ...miner.signRequest({ method: 'POST', url: '/api/v1/submissions', body: submissionBody(claimId, baseRef, patch, n) }) },
                body: submissionBody(claimId, baseRef, patch, n),
              });
              const body = (await response.json()) as { id?: string; detail?: { error?: string } };
              return { claimId, status: response.status, id: body.id, error: body.detail?.error };
            }),
          ),
        );
        const acknowledged = answers.filter((a) => a.status === 201).map((a) => a.id as string);
        const refused = answers.filter((a) => a.status !== 201);
        // A claim takes one submission: of each pair at most one is acknowledged, the other is 409 claim_not_active
        // (or, on a loaded machine, the retryable 503 database_unavailable, which stores nothing).
        const unavailable = refused.filter((a) => a.status === 503 && a.error === 'database_unavailable');
        expectThat(refused.every((a) => (a.status === 409 && a.error === 'claim_not_active') || (a.status === 503 && a.error === 'database_unavailable')), `unexpected answers: ${JSON.stringify(refused.slice(0, 3))}`);
        for (const { claimId } of claims) {
          const pair = answers.filter((a) => a.claimId === claimId);
          const created = pair.filter((a) => a.status === 201).length;
          expectThat(created <= 1 && (created === 1 || pair.every((a) => a.status === 503)), `claim ${claimId}: ${pair.map((a) => a.status).join(', ')}`);
        }
        expectThat(acknowledged.length > 0, `no submission acknowledged: ${JSON.stringify(refused.slice(0, 3))}`);
        const rows = await psql(project, 'coordinator', `SELECT s.id, count(j.id) FROM submissions s LEFT JOIN validator_jobs j ON j.submission_id = s.id WHERE s.task_id = '${taskId}' GROUP BY s.id`);
        const jobs = new Map(rows.map(([id, count]) => [id as string, Number(count)]));
        expectThat(jobs.size === acknowledged.length && acknowledged.every((id) => jobs.get(id) === 1), `submissions and their jobs: ${JSON.stringify([...jobs])} for ${acknowledged.length} acknowledged`);
        const upstreams = await upstreamsOf(project, since, /"uri":"\/api\/v1\/submissions"/);
        expectThat(upstreams.size === 2, `submissions reached ${[...upstreams].join(', ') || 'no logged upstream'}`);
        return `${acknowledged.length} acknowledged → ${jobs.size} validator jobs (one each), ${refused.length - unavailable.length} second submissions 409 claim_not_active${unavailable.length ? `, ${unavailable.length} 503 database_unavailable` : ''}; upstreams ${[...upstreams].join(' and ')}`;
      } finally {
        rmSync(repo, { recursive: true, force: true });
      }
    });

    await check(`two replicas: repeatable jobs run once per interval, not once per replica (BullMQ job ids in Redis, ${SWEEP_SECONDS} s sweeps, 5 s epoch check)`, async () => {
      const scaledAt = Date.now();
      const schedules = [
        { queue: 'coordinator.maintenance', scheduler: 'expire-claims', everyMs: SWEEP_SECONDS * 1000 },
        { queue: 'coordinator.maintenance', scheduler: 'expire-leases', everyMs: SWEEP_SECONDS * 1000 },
        { queue: 'pool.maintenance', scheduler: 'expire-assignments', everyMs: SWEEP_SECONDS * 1000 },
        { queue: 'pool.epochs', scheduler: 'epoch-check', everyMs: 5000 },
      ];
      // Each queue's keys under whatever prefix its service gives them (found, not assumed).
      const prefixes = new Map<string, string>();
      for (const { queue } of schedules) {
        const keys = (await redisCli(project, '--scan', '--pattern', `*:${queue}:meta`)).split('\n').filter(Boolean);
        expectThat(keys.length === 1, `queue ${queue}: meta keys ${keys.join(', ') || 'none'}`);
        prefixes.set(queue, (keys[0] as string).slice(0, -':meta'.length));
      }
      // A run is a job of the schedule that finished, completed or failed (a sweep that met an unavailable database).
      const runsOf = async (queue: string, scheduler: string): Promise<number[]> => {
        const prefix = prefixes.get(queue) as string;
        const ids = [...(await redisCli(project, 'ZRANGE', `${prefix}:completed`, '0', '-1')).split('\n'), ...(await redisCli(project, 'ZRANGE', `${prefix}:failed`, '0', '-1')).split('\n')];
        return ids.flatMap((id) => {
          const match = /^repeat:(.+):(\d+)$/.exec(id);
          return match && match[1] === scheduler && Number(match[2]) > scaledAt ? [Number(match[2])] : [];
        });
      };
      // Both replicas keep every schedule from here on; wait for enough intervals to count.
      await waitUntil('six runs of each repeatable job', 120_000, async () => {
        for (const { queue, scheduler } of schedules) if ((await runsOf(queue, scheduler)).length < 6) return false;
        return true;
      });
      const notes: string[] = [];
      for (const { queue, scheduler, everyMs } of schedules) {
        const runs = (await runsOf(queue, scheduler)).sort((a, b) => a - b);
        const gaps = runs.slice(1).map((at, i) => at - (runs[i] as number));
        // One job per interval slot: a second job of one interval (once per replica) would be a gap below the interval.
        expectThat(gaps.every((gap) => gap >= everyMs), `${scheduler}: runs ${gaps.join(', ')} ms apart, the interval is ${everyMs} ms`);
        const failed = (await redisCli(project, 'ZRANGE', `${prefixes.get(queue) as string}:failed`, '0', '-1')).split('\n').filter((id) => runs.some((at) => id === `repeat:${scheduler}:${at}`));
        const reasons = new Set<string>();
        for (const id of failed) reasons.add((await redisCli(project, 'HGET', `${prefixes.get(queue) as string}:${id}`, 'failedReason')).slice(0, 80));
        const attempts = await redisCli(project, 'HGET', `${prefixes.get(queue) as string}:repeat:${scheduler}:${runs[runs.length - 1] as number}`, 'atm');
        expectThat(attempts === '1', `${scheduler}: the last run took ${attempts || 'no'} attempt(s)`);
        const intervals = Math.round(((runs[runs.length - 1] as number) - (runs[0] as number)) / everyMs) + 1;
        notes.push(`${scheduler} ${runs.length} runs in ${intervals} intervals${failed.length ? ` (${failed.length} failed: ${[...reasons].join('; ')})` : ''}`);
      }
      // Both replicas have a worker on each of these queues (BullMQ names a worker's connection by its queue), yet each interval ran once.
      const clients = (await redisCli(project, 'CLIENT', 'LIST')).split('\n');
      for (const queue of new Set(schedules.map((schedule) => schedule.queue))) {
        const name = `:${Buffer.from(queue).toString('base64')} `;
        const hosts = new Set(clients.flatMap((line) => (line.includes(name) ? [/addr=([\d.]+):/.exec(line)?.[1] ?? '?'] : [])));
        expectThat(hosts.size === 2, `${queue}: workers on ${hosts.size} replica(s)`);
      }
      return `${notes.join(', ')}; workers of each queue on both replicas`;
    });

    await check('gateway body limit: a 4 MiB body is a 413 body_too_large', async () => {
      const response = await fetch(`${coordinator}/api/v1/submissions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ patch: 'x'.repeat(4 << 20) }) });
      const body = (await response.json()) as { detail: { error: string } };
      expectThat(response.status === 413 && body.detail.error === 'body_too_large', `${response.status} ${JSON.stringify(body)}`);
    });

    await check('gateway: /metrics of every service is not reachable through the public hosts (404 in the error shape)', async () => {
      const answers: string[] = [];
      for (const url of [`${coordinator}/metrics`, `${pool}/metrics`, `${coordinator}/metrics/`, `http://web.localhost:${port}/metrics`]) {
        const response = await fetch(url);
        const body = (await response.json()) as { detail?: { error?: string } };
        expectThat(response.status === 404 && body.detail?.error === 'not_found', `${url}: ${response.status} ${JSON.stringify(body)}`);
        answers.push(`${new URL(url).host}${new URL(url).pathname} 404`);
      }
      return answers.join(', ');
    });

    await check('gateway: the web UI at localhost and web.localhost, with a config.json naming the services at the gateway\'s own host names and port', async () => {
      const notes: string[] = [];
      for (const host of ['localhost', 'web.localhost']) {
        const page = await fetch(`http://${host}:${port}/`);
        const html = await page.text();
        expectThat(page.status === 200 && (page.headers.get('content-type') ?? '').startsWith('text/html') && html.includes('<html'), `${host}: ${page.status} ${html.slice(0, 200)}`);
        const config = await fetch(`http://${host}:${port}/config.json`);
        const body = (await config.json()) as { coordinator?: string; pool?: string };
        expectThat(config.status === 200 && body.coordinator === coordinator && body.pool === pool, `${host}/config.json: ${config.status} ${JSON.stringify(body)}`);
        notes.push(`${host}: ${html.includes('not part of this checkout') ? 'placeholder page (no apps/web)' : 'the built web UI'}`);
      }
      // The services the config names answer at those URLs.
      const status = await fetch(`${coordinator}/healthz`);
      expectThat(status.status === 200, `coordinator from config.json: ${status.status}`);
      return `${notes.join(', ')}; config.json → ${coordinator}, ${pool}`;
    });

    await check('gateway and web image: the web UI with the security headers of DECISIONS §14, its CSP connecting to the services its config.json names', async () => {
      const notes: string[] = [];
      const expectHeaders = (where: string, response: Response, services: { coordinator: string; pool: string }) => {
        for (const [name, value] of Object.entries(webSecurityHeaders(services))) {
          expectThat(response.headers.get(name) === value, `${where}: ${name} is ${JSON.stringify(response.headers.get(name))}, expected ${JSON.stringify(value)}`);
        }
      };
      for (const host of ['localhost', 'web.localhost']) {
        for (const path of ['/', '/config.json', '/competitions']) expectHeaders(`${host}${path}`, await fetch(`http://${host}:${port}${path}`), { coordinator, pool });
      }
      notes.push('gateway: /, /config.json, a deep path');
      // The Kubernetes web image, run as its Deployment runs it: non-root, read-only root, /tmp writable.
      const webPort = await freePort();
      const id = await docker('run', '-d', '--read-only', '--tmpfs', '/tmp', '--cap-drop', 'ALL', '-p', `127.0.0.1:${webPort}:8080`, `rcs/web:${tag}`);
      try {
        const web = `http://127.0.0.1:${webPort}`;
        await waitUntil('the web image /healthz', 60_000, async () => (await fetch(`${web}/healthz`)).status === 200);
        const config = (await (await fetch(`${web}/config.json`)).json()) as { coordinator: string; pool: string };
        for (const path of ['/', '/config.json']) expectHeaders(`web image ${path}`, await fetch(`${web}${path}`), config);
        notes.push(`web image: connect-src from its config.json (${config.coordinator}, ${config.pool})`);
      } finally {
        await docker('rm', '-f', id).catch(() => undefined);
      }
      return notes.join('; ');
    });

    // Last: the burst empties this address's bucket at the gateway, and any request right after it is a 429.
    await check('gateway rate limit: a burst of 150 requests from one address meets 429 rate_limited', async () => {
      const statuses = await Promise.all(Array.from({ length: 150 }, () => fetch(`${coordinator}/healthz`).then(async (r) => ({ status: r.status, body: await r.text() }))));
      const limited = statuses.filter((s) => s.status === 429);
      expectThat(limited.length > 0 && statuses.some((s) => s.status === 200), `statuses: ${[...new Set(statuses.map((s) => s.status))].join(',')}`);
      expectThat(limited.every((s) => s.body.includes('rate_limited')), limited[0]?.body ?? '');
      return `${limited.length} of 150 limited`;
    });
  } catch (error) {
    if (!(error instanceof CheckFailed)) {
      outcomes.push({ name: 'unexpected error', ok: false });
      process.stdout.write(`FAIL unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    }
  } finally {
    if (upStarted) {
      const failedAny = outcomes.some((o) => !o.ok);
      if (failedAny) await project.compose(['logs', '--no-color', '--tail', '60'], { stream: true }).catch(() => undefined);
      await check('teardown (containers, network, volumes)', async () => {
        await project.compose(['down', '-v', '--remove-orphans', '-t', '20'], { stream: true });
      });
    }
    rmSync(work, { recursive: true, force: true });
  }
  const passed = outcomes.filter((o) => o.ok).length;
  const failed = outcomes.length - passed;
  process.stdout.write(`\ndeploy:check: ${passed} passed, ${failed} failed (${seconds(started)} s)\n`);
  return failed === 0 ? 0 : 1;
}

function submissionBody(claimId: string, baseRef: string, patch: string, n: number): string {
  return JSON.stringify({ claim_id: claimId, base_ref: baseRef, patch, summary: `Burst submission ${n}.`, claimed_metrics: { loss: 0.5 } });
}

/** The runner's sandbox containers (started through the socket, one per replay) since `since` (epoch seconds). */
async function sandboxContainersSince(since: string): Promise<string[]> {
  const events = await docker('events', '--since', since, '--until', String(Math.ceil(Date.now() / 1000)), '--filter', 'type=container', '--filter', 'event=start', '--format', '{{.Actor.Attributes.name}} {{.Actor.Attributes.image}}');
  return events.split('\n').filter((line) => line.startsWith('rcs-sandbox-') && line.endsWith(` ${SANDBOX_IMAGE}`));
}

/** Rows of a query in the stack's Postgres (as its superuser), columns split. */
async function psql(project: ComposeProject, database: string, sql: string): Promise<string[][]> {
  const id = await project.containerId('postgres');
  const out = await docker('exec', id, 'psql', '-U', 'postgres', '-d', database, '-At', '-F', '|', '-v', 'ON_ERROR_STOP=1', '-c', sql);
  return out.split('\n').filter(Boolean).map((line) => line.split('|'));
}

async function redisCli(project: ComposeProject, ...args: string[]): Promise<string> {
  return docker('exec', await project.containerId('redis'), 'redis-cli', ...args);
}

/** The upstream addresses the gateway sent matching requests to since `since`. */
async function upstreamsOf(project: ComposeProject, since: string, uri: RegExp): Promise<Set<string>> {
  const log = await docker('logs', '--since', since, await project.containerId('gateway'));
  return new Set(
    log.split('\n').flatMap((line) => {
      const entry = uri.test(line) ? /"upstream":"([^"]+)"/.exec(line) : null;
      return entry ? [entry[1] as string] : [];
    }),
  );
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`deploy:check: ${String(error)}\n`);
    process.exit(1);
  },
);
