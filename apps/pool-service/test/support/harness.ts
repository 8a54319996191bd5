import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { BtAuthSigner, cryptoReady, keypairFromUri } from '@rcs/auth';
import { createHttpApp, createLogger, serveTestApp } from '@rcs/http';
import { sharedDataSourceOptions } from '@rcs/persistence';
import { EpochJob, QueueName } from '@rcs/contracts';
import { JobQueue } from '@rcs/queue';
import { createTestDatabase, createTestRedis, TestDatabase, TestRedis, until } from '@rcs/testing';
import { AppModule } from '../../src/app.module';
import { loadPoolServiceConfig, PoolServiceConfig } from '../../src/config/config';
import { POOL_ENTITIES, POOL_MIGRATIONS } from '../../src/database';
import type { PoolJobs } from '../../src/jobs/pool-jobs';
import { POOL_OPENAPI } from '../../src/openapi';

export const POOL_TEMPLATE = 'rcs_pool_template';

/** This test file's own pool database: a clone of the migrated template. */
export function createPoolTestDatabase(): Promise<TestDatabase> {
  return createTestDatabase({ template: POOL_TEMPLATE, entities: POOL_ENTITIES, migrations: POOL_MIGRATIONS, dataSourceOptions: sharedDataSourceOptions() });
}

/** The env that points a pool at this database and Redis prefix: a second pool on them is another process of the same stack. */
export function poolStoresEnv(db: TestDatabase, redis: TestRedis): NodeJS.ProcessEnv {
  return { POOL_DATABASE_URL: db.url, REDIS_URL: redis.url, REDIS_KEY_PREFIX: redis.prefix };
}

export interface PoolHarness {
  app: NestFastifyApplication;
  url: string;
  config: PoolServiceConfig;
  db: TestDatabase;
  redis: TestRedis;
  /** Unsigned and signed HTTP against this pool. */
  client: PoolClient;
  close(): Promise<void>;
}

/**
 * The pool as it runs in production, on real Postgres and Redis, with the dev chain. The stake gate is off
 * unless `env` turns it on (its own tests seed stakes and owners through DEV_CHAIN_SEED).
 */
export async function startPool(env: NodeJS.ProcessEnv = {}): Promise<PoolHarness> {
  await cryptoReady();
  const db = await createPoolTestDatabase();
  const redis = await createTestRedis();
  const served = await servePool({ ...poolStoresEnv(db, redis), ...env }, async () => {
    await redis.cleanup();
    await db.drop();
  });
  return { ...served, db, redis };
}

/** The pool on the stores `env` names (e.g. a Postgres and a Redis of a fault test's own); `release` runs after it closes. */
export async function servePool(env: NodeJS.ProcessEnv, release: () => Promise<void> = async () => undefined): Promise<Omit<PoolHarness, 'db' | 'redis'>> {
  await cryptoReady();
  const config = loadPoolServiceConfig({
    CHAIN: 'dev',
    NETUID: '1',
    LOG_LEVEL: 'silent',
    POOL_STAKE_CHECK: 'off',
    ...env,
  });
  const served = await serveTestApp(AppModule.forRoot(config), {
    name: 'pool-service',
    logLevel: config.logLevel,
    openApi: POOL_OPENAPI,
    release,
  });
  return { ...served, config, client: new PoolClient(served.url) };
}

/**
 * Waits for the epoch check that the pool's scheduler runs once at boot (BullMQ runs an `every` schedule at once;
 * a second process on the same Redis adds no other). A test that rolls over and publishes epochs itself starts after
 * it: on a loaded machine the check ran seconds late, found the test's epoch pending and published it first.
 */
export async function bootEpochCheckDone(app: NestFastifyApplication): Promise<void> {
  const checks = app.get<JobQueue<PoolJobs>>(JobQueue).queue(QueueName.Epochs, EpochJob.Check);
  await until(
    "the pool's boot epoch check",
    () => checks.getJobCounts('completed', 'failed', 'waiting', 'active', 'prioritized'),
    (count) => count.completed + count.failed >= 1 && count.waiting + count.active + count.prioritized === 0,
  );
}

/** The pool app on `config` as its service builds it, not yet listening (e.g. to watch it refuse to start). */
export function createPoolApp(config: PoolServiceConfig): Promise<NestFastifyApplication> {
  return createHttpApp(AppModule.forRoot(config), { logger: createLogger({ level: config.logLevel, name: 'pool-service' }), openApi: POOL_OPENAPI });
}

export async function signer(uri: string): Promise<BtAuthSigner> {
  return new BtAuthSigner(await keypairFromUri(uri));
}

export interface Reply<T = Record<string, unknown>> {
  status: number;
  body: T;
  /** The response headers (e.g. `Retry-After` on a 503). */
  headers?: Headers;
}

export type ErrorBody = { detail: { error: string; message: string } & Record<string, unknown> };
export type ItemsBody = { detail: { type: string; loc: (string | number)[]; msg: string }[] };

/** HTTP against the pool, signed as BitSota's clients sign: X-Key, X-Timestamp, X-Signature. */
export class PoolClient {
  constructor(readonly url: string) {}

  async send<T = Record<string, unknown>>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply<T>> {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const response = await fetch(`${this.url}${path}`, {
      method,
      headers: { ...(text === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: text,
    });
    const raw = await response.text();
    let parsed: unknown = raw;
    try {
      parsed = JSON.parse(raw);
    } catch {
      // Markdown and other text stay as text.
    }
    return { status: response.status, body: parsed as T, headers: response.headers };
  }

  signed<T = Record<string, unknown>>(who: BtAuthSigner, method: string, path: string, body?: unknown): Promise<Reply<T>> {
    return this.send<T>(method, path, body, { ...who.signPool() });
  }

  recipient<T = Record<string, unknown>>(who: BtAuthSigner, method: string, path: string, coldkey: string, field = 'recipient_coldkey'): Promise<Reply<T>> {
    const ts = Math.floor(Date.now() / 1000);
    return this.send<T>(method, path, { [field]: coldkey }, { ...who.signRecipientUpdate(ts, coldkey) });
  }
}

export function expectStatus(reply: Reply<unknown>, status: number): void {
  if (reply.status !== status) throw new UnexpectedStatusError(status, reply);
}

export class UnexpectedStatusError extends Error {
  constructor(expected: number, reply: Reply<unknown>) {
    super(`expected HTTP ${expected}, got ${reply.status}: ${JSON.stringify(reply.body).slice(0, 2000)}`);
    this.name = 'UnexpectedStatusError';
  }
}
