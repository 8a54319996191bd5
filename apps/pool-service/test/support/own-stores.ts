import { sharedDataSourceOptions } from '@rcs/persistence';
import { PostgresServer, RedisServer, startPostgresServer, startRedisServer } from '@rcs/testing';
import { DataSource } from 'typeorm';
import { POOL_ENTITIES, POOL_MIGRATIONS } from '../../src/database';
import { type PoolHarness, servePool } from './harness';

/** A Postgres and a Redis of a fault test's own (it stops, crashes and empties them), the pool database migrated. */
export interface OwnStores {
  pg: PostgresServer;
  redis: RedisServer;
  /** The pool database, for the test's own reads and writes. */
  db: DataSource;
  databaseUrl: string;
  destroy(): Promise<void>;
}

export async function startOwnStores(): Promise<OwnStores> {
  const [pg, redis] = await Promise.all([startPostgresServer(), startRedisServer()]);
  await pg.createDatabase('pool');
  const databaseUrl = pg.databaseUrl('pool');
  const db = new DataSource({ ...sharedDataSourceOptions(), type: 'postgres', url: databaseUrl, entities: POOL_ENTITIES, migrations: POOL_MIGRATIONS });
  await db.initialize();
  await db.runMigrations({ transaction: 'each' });
  return {
    pg,
    redis,
    db,
    databaseUrl,
    destroy: async () => {
      await db.destroy().catch(() => undefined);
      await Promise.all([pg.destroy(), redis.destroy()]);
    },
  };
}

/** The pool served on these stores, its Redis keys under `prefix`, with `env` on top. */
export function servePoolOn(stores: OwnStores, prefix: string, env: Record<string, string>): Promise<Omit<PoolHarness, 'db' | 'redis'>> {
  return servePool({ POOL_DATABASE_URL: stores.databaseUrl, REDIS_URL: stores.redis.url, REDIS_KEY_PREFIX: prefix, ...env });
}

/** Epochs every `windowBlocks` blocks of `blockMs`, checked (and their schedules kept) every second, `budget` rao each, one snapshot attempt. */
export function fastEpochsEnv(budget: bigint, windowBlocks: number, blockMs: number): Record<string, string> {
  return {
    POOL_EPOCH_BUDGET_UNITS: budget.toString(),
    POOL_SNAPSHOT_ATTEMPTS: '1',
    POOL_EPOCH_CHECK_SECONDS: '1',
    SCHEDULE_CHECK_INTERVAL_SECONDS: '1',
    POOL_WINDOW_BLOCKS: String(windowBlocks),
    DEV_CHAIN_BLOCK_TIME_MS: String(blockMs),
  };
}

/** Epochs of `budget` rao published by //Alice, only when the test rolls them over, one snapshot attempt. */
export function testRolloverEnv(budget: bigint | number): Record<string, string> {
  return { PUBLISHER_SECRET_URI: '//Alice', POOL_EPOCH_BUDGET_UNITS: budget.toString(), POOL_SNAPSHOT_ATTEMPTS: '1', POOL_EPOCH_CHECK_SECONDS: '3600' };
}

/** Simulated claims on the dev contract, published by //Alice and open at once; epochs only when the test rolls them over. */
export function simulatedClaimsEnv(budget: bigint): Record<string, string> {
  return { ...testRolloverEnv(budget), CLAIM_SIMULATION: 'true', DEV_CHAIN_BLOCK_TIME_MS: '3600000', DEV_CLAIM_CHALLENGE_BLOCKS: '0' };
}
