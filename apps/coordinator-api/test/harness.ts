import { randomBytes } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { addAuthSecuritySchemes, cryptoReady } from '@rcs/auth';
import { serveTestApp } from '@rcs/http';
import { sharedDataSourceOptions } from '@rcs/persistence';
import { createTestDatabase, createTestRedis, suiteResource, TestDatabase, TestRedis } from '@rcs/testing';
import { AppModule } from '../src/app.module';
import { CoordinatorConfig, loadCoordinatorConfig } from '../src/config/config';
import { COORDINATOR_ENTITIES, COORDINATOR_MIGRATIONS } from '../src/database';

export const COORDINATOR_TEMPLATE = 'rcs_coordinator_template';

export interface CoordinatorHarness {
  app: NestFastifyApplication;
  /** Base URL, e.g. http://127.0.0.1:40123 */
  url: string;
  config: CoordinatorConfig;
  adminToken: string;
  /** This test file's own database (a clone of the migrated template). */
  db: TestDatabase;
  /** This test file's own Redis key prefix, also the app's REDIS_KEY_PREFIX. */
  redis: TestRedis;
  close(): Promise<void>;
}

/** This test file's own coordinator database: a clone of the migrated template. */
export function createCoordinatorTestDatabase(): Promise<TestDatabase> {
  return createTestDatabase({
    template: COORDINATOR_TEMPLATE,
    entities: COORDINATOR_ENTITIES,
    migrations: COORDINATOR_MIGRATIONS,
    dataSourceOptions: sharedDataSourceOptions(),
  });
}

/** The coordinator as it runs in production, on real Postgres and Redis, with the dev chain. */
export async function startCoordinator(env: NodeJS.ProcessEnv = {}): Promise<CoordinatorHarness> {
  await cryptoReady();
  const db = await createCoordinatorTestDatabase();
  const redis = await createTestRedis();
  const adminToken = randomBytes(16).toString('hex');
  const config = loadCoordinatorConfig({
    CHAIN: 'dev',
    NETUID: '1',
    STAKE_CHECK: 'off',
    ADMIN_TOKENS: adminToken,
    COORDINATOR_DATABASE_URL: db.url,
    REDIS_URL: redis.url,
    REDIS_KEY_PREFIX: redis.prefix,
    LOG_LEVEL: 'silent',
    ...env,
  });
  const served = await serveTestApp(AppModule.forRoot(config), {
    name: 'coordinator-api',
    logLevel: config.logLevel,
    openApi: { title: 'Research Coordinator API', description: 'test', version: '0.1.0', configure: addAuthSecuritySchemes },
    release: async () => {
      await redis.cleanup();
      await db.drop();
    },
  });
  return { ...served, config, adminToken, db, redis };
}

/** Starts the coordinator (with `env`) before the enclosing describe's tests, hands it to `use`, and closes it after them. */
export function startCoordinatorForSuite(env: NodeJS.ProcessEnv, use: (harness: CoordinatorHarness) => unknown): void {
  suiteResource(() => startCoordinator(env), (harness) => harness.close(), use);
}
