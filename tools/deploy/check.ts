/**
 * `npm run deploy:check`: the deployment run for real on this machine. Builds the images (and the
 * local base stand-ins when the real ones cannot be pulled), brings the compose stack up on a free
 * port of 127.0.0.1, and checks it through the gateway: readiness, host routing, body and rate
 * limits, a scripted round, an abrupt coordinator restart that loses no acknowledged submission.
 * Tears everything down (containers, network, volumes) whatever happens. Prints one line per
 * check and `deploy:check: N passed, N failed`; exits 1 on any failure.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { BtAuthSigner, cryptoReady, keypairFromUri } from '@rcs/auth';
import { freePort } from '@rcs/testing';
import { createRepository, RoundClient, runRound } from '../round/round';
import { ComposeProject, docker } from './compose';
import { resolveLocalhostSubdomains } from './localhost-dns';

const ROOT = resolve(__dirname, '..', '..');
const run = promisify(execFile);

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

async function script(path: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const { stdout, stderr } = await run('bash', [path], { cwd: ROOT, env: { ...process.env, ...env }, timeout: 1_800_000, maxBuffer: 64 << 20 });
  return `${stdout}${stderr}`;
}

async function main(): Promise<number> {
  const started = Date.now();
  resolveLocalhostSubdomains();
  await cryptoReady();
  const tag = `check-${(await run('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT })).stdout.trim()}`;
  const images: Record<string, string> = {};
  const work = mkdtempSync(join(tmpdir(), 'deploy-check-'));
  const project = new ComposeProject(ROOT, `rcscheck${process.pid}`, join(work, 'check.env'), ['docker-compose.yml']);
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
        if (missing.length > 0) {
          const output = await run('bash', ['deploy/docker/local-base.sh', ...missing], { cwd: ROOT, timeout: 1_800_000, maxBuffer: 64 << 20 });
          process.stdout.write(output.stderr);
        }
        return Object.values(images).join(', ');
      },
      true,
    );

    await check(
      'app images build',
      async () => {
        const output = await script('deploy/docker/build-images.sh', { IMAGE_TAG: tag, NODE_IMAGE: images.NODE_IMAGE });
        const sizes = output.split('\n').filter((line) => line.startsWith('[images]'));
        process.stdout.write(`${sizes.join('\n')}\n`);
        expectThat(sizes.length === 4, `expected four images, got:\n${output}`);
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
      WEIGHT_SETTER_SECRET_URI: '//Bob',
      WEIGHTS_DRY_RUN: 'true',
      GATEWAY_BIND: '127.0.0.1',
      GATEWAY_PORT: String(port),
      LOG_LEVEL: 'warn',
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
        return `gateway on 127.0.0.1:${port}`;
      },
      true,
    );

    await check('coordinator /readyz through the gateway: database, Redis and chain ok', async () => {
      const response = await fetch(`${coordinator}/readyz`);
      const body = (await response.json()) as { checks: Record<string, { ok: boolean }> };
      expectThat(response.status === 200 && body.checks.database?.ok === true && body.checks.redis?.ok === true && body.checks.chain?.ok === true, JSON.stringify(body));
    });

    await check('pool through the gateway: /readyz when it has one, else /healthz', async () => {
      const ready = await fetch(`${pool}/readyz`);
      const response = ready.status === 404 ? await fetch(`${pool}/healthz`) : ready;
      const body = (await response.json()) as { service?: string; status?: string };
      expectThat(response.status === 200, `${response.status} ${JSON.stringify(body)}`);
      return ready.status === 404 ? `healthz ${JSON.stringify(body)} (no /readyz yet)` : 'readyz 200';
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

    await check('app containers: healthy (image HEALTHCHECK), uid 1000, read-only root, no capabilities', async () => {
      const notes: string[] = [];
      for (const service of ['coordinator', 'pool', 'weight-setter']) {
        const id = await project.containerId(service);
        await waitUntil(`${service} healthy`, 120_000, async () => (await docker('inspect', '-f', '{{.State.Health.Status}}', id)) === 'healthy');
        const [user, readOnly, capDrop] = (await docker('inspect', '-f', '{{.Config.User}}|{{.HostConfig.ReadonlyRootfs}}|{{.HostConfig.CapDrop}}', id)).split('|');
        expectThat(user === '1000:1000' && readOnly === 'true' && capDrop === '[ALL]', `${service}: ${user} ${readOnly} ${capDrop}`);
        const pid1 = await docker('exec', id, 'cat', '/proc/1/cmdline');
        expectThat(pid1.startsWith('/usr/bin/tini'), `${service}: PID 1 is ${pid1}`);
        notes.push(service);
      }
      return notes.join(', ');
    });

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
      for (const id of ids) await waitUntil('both coordinators healthy', 120_000, async () => (await docker('inspect', '-f', '{{.State.Health.Status}}', id)) === 'healthy');
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
              (error: unknown) => (error instanceof Error && error.message.includes('duplicate_active_claim') ? 'duplicate' : `other: ${error instanceof Error ? error.message.slice(0, 200) : String(error)}`),
            ),
          ),
        );
        const created = claims.filter((c) => c === 'created').length;
        const others = claims.filter((c) => c !== 'created' && c !== 'duplicate');
        expectThat(created === 1 && others.length === 0, `created ${created}, unexpected: ${[...new Set(others)].join(' | ')}`);
        const gatewayLog = await docker('logs', '--since', since, await project.containerId('gateway'));
        const upstreams = new Set(
          gatewayLog.split('\n').flatMap((line) => {
            const entry = /"uri":"\/api\/v1\/tasks\/[^"]*\/claim".*"upstream":"([^"]+)"/.exec(line);
            return entry ? [entry[1] as string] : [];
          }),
        );
        expectThat(upstreams.size === 2, `claims reached ${[...upstreams].join(', ') || 'no logged upstream'}`);
        return `1 claim created, ${claims.length - 1} duplicate_active_claim, upstreams ${[...upstreams].join(' and ')}`;
      } finally {
        rmSync(repo, { recursive: true, force: true });
      }
    });

    await check('gateway body limit: a 4 MiB body is a 413 body_too_large', async () => {
      const response = await fetch(`${coordinator}/api/v1/submissions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ patch: 'x'.repeat(4 << 20) }) });
      const body = (await response.json()) as { detail: { error: string } };
      expectThat(response.status === 413 && body.detail.error === 'body_too_large', `${response.status} ${JSON.stringify(body)}`);
    });

    await check('gateway rate limit: a burst of 150 requests from one address meets 429 rate_limited', async () => {
      const statuses = await Promise.all(Array.from({ length: 150 }, () => fetch(`${coordinator}/healthz`).then(async (r) => ({ status: r.status, body: await r.text() }))));
      const limited = statuses.filter((s) => s.status === 429);
      expectThat(limited.length > 0 && statuses.some((s) => s.status === 200), `statuses: ${[...new Set(statuses.map((s) => s.status))].join(',')}`);
      expectThat(limited.every((s) => s.body.includes('rate_limited')), limited[0]?.body ?? '');
      return `${limited.length} of 150 limited`;
    });
    await check('validator runner (deploy/runner compose): healthy, drives the host engine through the socket, sandbox siblings have no network', async () => {
      const runnerWork = mkdtempSync(join(tmpdir(), 'deploy-check-runner-'));
      const runner = new ComposeProject(ROOT, `${project.name}runner`, join(work, 'runner.env'), ['deploy/runner/docker-compose.yml']);
      const socketGid = (await run('stat', ['-c', '%g', '/var/run/docker.sock'])).stdout.trim();
      const runnerEnv = {
        IMAGE_TAG: tag,
        REDIS_IMAGE: images.REDIS_IMAGE,
        COORDINATOR_URL: 'http://127.0.0.1:9',
        VALIDATOR_SECRET_URI: '//Alice',
        SANDBOX_DOCKER_IMAGE: images.NODE_IMAGE,
        RUNNER_WORK_DIR: runnerWork,
        DOCKER_GID: socketGid,
        LOG_LEVEL: 'warn',
      };
      writeFileSync(runner.envFile, Object.entries(runnerEnv).map(([k, v]) => `${k}=${v}`).join('\n') + '\n', { mode: 0o600 });
      await run('chown', ['1000:1000', runnerWork]);
      try {
        await runner.compose(['up', '-d', '--no-build'], { stream: true });
        const id = await runner.containerId('runner');
        await waitUntil('the runner healthy', 120_000, async () => (await docker('inspect', '-f', '{{.State.Health.Status}}', id)) === 'healthy');
        const engine = await docker('exec', id, 'docker', 'version', '-f', '{{.Server.Version}}');
        expectThat(engine.length > 0, 'the runner cannot reach the engine');
        // A sibling started as the docker sandbox starts them: no route anywhere but loopback.
        const probe = "require('net').connect(443, '192.0.2.1').on('error', (e) => { console.log('refused ' + e.code); process.exit(0); }).on('connect', () => { console.log('connected'); process.exit(1); })";
        const sibling = await docker('exec', id, 'docker', 'run', '--rm', '--network', 'none', '--read-only', '--cap-drop', 'ALL', images.NODE_IMAGE as string, 'node', '-e', probe);
        expectThat(sibling.startsWith('refused'), sibling);
        return `engine ${engine}, sibling: ${sibling}`;
      } finally {
        await runner.compose(['down', '-v', '--remove-orphans', '-t', '10'], { stream: true }).catch(() => undefined);
        rmSync(runnerWork, { recursive: true, force: true });
      }
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

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`deploy:check: ${String(error)}\n`);
    process.exit(1);
  },
);
