import { randomBytes } from 'node:crypto';
import { accountIdToSs58 } from '@rcs/merkle';
import { ReadReplicas } from '@rcs/persistence';
import { createTestRedis, PostgresReplica, PostgresServer, startPostgresServer, TestRedis } from '@rcs/testing';
import { expectStatus, servePool } from './support/harness';

/**
 * POOL_DATABASE_REPLICA_URLS against a real streaming replica (DECISIONS §19): the leaderboard and a
 * miner's standing run on the replica, and on the primary while the replica is stopped. The pool's
 * other routes never go through the router. `nx run tools:test-cluster`.
 */
describe('pool reads on a Postgres streaming replica', () => {
  let pg: PostgresServer;
  let replica: PostgresReplica;
  let redis: TestRedis;
  let pool: Awaited<ReturnType<typeof servePool>>;
  let replicas: ReadReplicas;

  beforeAll(async () => {
    [pg, redis] = await Promise.all([startPostgresServer(), createTestRedis()]);
    await pg.createDatabase('pool');
    replica = await pg.startReplica();
    pool = await servePool({
      POOL_DATABASE_URL: pg.databaseUrl('pool'),
      POOL_DATABASE_REPLICA_URLS: replica.databaseUrl('pool'),
      REDIS_URL: redis.url,
      REDIS_KEY_PREFIX: redis.prefix,
    });
    replicas = pool.app.get(ReadReplicas);
  }, 180_000);

  afterAll(async () => {
    await pool?.close();
    await redis?.cleanup();
    await pg?.destroy();
  });

  it('serves the leaderboard and standings from the replica, and from the primary while it is stopped', async () => {
    const stranger = accountIdToSs58(randomBytes(32), 42);
    const before = replicas.counts;
    for (let i = 0; i < 5; i += 1) {
      expectStatus(await pool.client.send('GET', '/api/v1/miners/leaderboard?limit=10'), 200);
      expectStatus(await pool.client.send('GET', `/api/v1/miners/${stranger}/standing`), 404);
    }
    const onReplica = replicas.counts;
    expect(onReplica.replica - before.replica).toBe(10);
    expect(onReplica.primary).toBe(before.primary);

    await replica.stop();
    expectStatus(await pool.client.send('GET', '/api/v1/miners/leaderboard?limit=10'), 200);
    expect(replicas.counts).toEqual({ replica: onReplica.replica, primary: onReplica.primary + 1 });
    await replica.start();
  }, 60_000);
});
