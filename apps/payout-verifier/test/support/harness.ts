import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { cryptoReady } from '@rcs/auth';
import { DevChain, DevClaimContract } from '@rcs/chain';
import { serveTestApp } from '@rcs/http';
import { sharedDataSourceOptions } from '@rcs/persistence';
import { createTestDatabase, createTestRedis, type TestDatabase, type TestRedis } from '@rcs/testing';
import { AppModule } from '../../src/app.module';
import { loadPayoutVerifierConfig } from '../../src/config/config';
import { VERIFIER_ENTITIES, VERIFIER_MIGRATIONS } from '../../src/database';
import { VerifierService } from '../../src/verify/verifier.service';
import { PayoutWorld } from './payout-world';

export const VERIFIER_TEMPLATE = 'rcs_payout_verifier_template';

/** This test's verifier database (a clone of the migrated template), Redis prefix, dev contract and stand-in pool and coordinator. */
export interface VerifierStores {
  db: TestDatabase;
  redis: TestRedis;
  contract: DevClaimContract;
  world: PayoutWorld;
  release(): Promise<void>;
}

export async function createStores(): Promise<VerifierStores> {
  await cryptoReady();
  const db = await createTestDatabase({ template: VERIFIER_TEMPLATE, entities: VERIFIER_ENTITIES, migrations: VERIFIER_MIGRATIONS, dataSourceOptions: sharedDataSourceOptions() });
  const redis = await createTestRedis();
  const contract = new DevClaimContract(new DevChain({ blockTimeMs: 1_000 }), redis.redis, redis.prefix);
  const world = await PayoutWorld.create(contract);
  return {
    db,
    redis,
    contract,
    world,
    release: async () => {
      await world.close();
      await redis.cleanup();
      await db.drop();
    },
  };
}

export interface VerifierHarness {
  app: NestFastifyApplication;
  url: string;
  verifier: VerifierService;
  close(): Promise<void>;
}

/** The verifier app in-process on these stores; passes run only when the test calls them. */
export async function startVerifier(stores: VerifierStores, env: NodeJS.ProcessEnv = {}): Promise<VerifierHarness> {
  const config = loadPayoutVerifierConfig({
    CHAIN: 'dev',
    NETUID: '1',
    LOG_LEVEL: 'silent',
    REDIS_URL: stores.redis.url,
    REDIS_KEY_PREFIX: stores.redis.prefix,
    VERIFIER_DATABASE_URL: stores.db.url,
    VERIFIER_SECRET_URI: '//Verifier',
    COORDINATOR_URL: stores.world.url,
    POOL_URL: stores.world.url,
    VERIFIER_INTERVAL_SECONDS: '0',
    VERIFIER_HTTP_TIMEOUT_SECONDS: '5',
    ...env,
  });
  const served = await serveTestApp(AppModule.forRoot(config), {
    name: 'payout-verifier',
    logLevel: config.logLevel,
    openApi: { title: 'Payout Verifier', description: 'test', version: '0.1.0' },
    release: async () => undefined,
  });
  return { ...served, verifier: served.app.get(VerifierService) };
}
