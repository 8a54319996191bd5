import { keypairFromUri } from '@rcs/auth';
import type { ClaimPackage } from '@rcs/merkle';
import { FakeCoordinator, PostgresServer, RedisServer, snapshotOf, startPostgresServer, startRedisServer, until } from '@rcs/testing';
import { Client } from 'pg';
import { EpochsService } from '../src/epochs/epochs.service';
import { bootEpochCheckDone, ErrorBody, PoolClient, PoolHarness, Reply, signer, startPool } from './support/harness';
import { simulatedClaimsEnv } from './support/own-stores';

/**
 * What clients of the pool see when its Redis goes away. The pool runs on a Redis and a Postgres of
 * this file's own (the dev chain's contract lives in that Redis); the Redis is stopped and started again.
 */

/** An answer, not a hang: the pool used to wait up to 10 s on a stopped Redis. */
const FAST_MS = 1000;

describe('pool faults: Redis going away', () => {
  const coordinator = new FakeCoordinator();
  let pg: PostgresServer;
  let redis: RedisServer;
  let pool: PoolHarness;
  let api: PoolClient;
  const hk: Record<string, string> = {};
  const cold: Record<string, string> = {};

  beforeAll(async () => {
    [pg, redis] = await Promise.all([startPostgresServer(), startRedisServer(), coordinator.start()]);
    await pg.createDatabase('pool');
    for (const name of ['a', 'b', 'c']) {
      hk[name] = (await keypairFromUri(`//FaultMiner/${name}`)).address;
      cold[name] = (await keypairFromUri(`//FaultCold/${name}`)).address;
    }
    pool = await startPool({
      POOL_DATABASE_URL: pg.databaseUrl('pool'),
      REDIS_URL: redis.url,
      COORDINATOR_URL: coordinator.url,
      ...simulatedClaimsEnv(1000n),
    });
    await bootEpochCheckDone(pool.app);
    api = pool.client;
    const db = new Client({ connectionString: pg.databaseUrl('pool') });
    await db.connect();
    for (const name of ['a', 'b', 'c']) {
      await db.query(`INSERT INTO miners (hotkey, recipient_coldkey, recipient_updated_at) VALUES ($1, $2, now())`, [hk[name], cold[name]]);
    }
    await db.end();
    coordinator.snapshot = snapshotOf([
      [hk['a'], 3],
      [hk['b'], 2],
      [hk['c'], 1],
    ]);
    expect(await pool.app.get(EpochsService).rollover(10)).toMatchObject({ epoch: 10, publication: 'published' });
  }, 120_000);

  afterAll(async () => {
    await pool?.close();
    await coordinator.close();
    await Promise.all([pg?.destroy(), redis?.destroy()]);
  }, 60_000);

  async function timed<T>(request: () => Promise<Reply<T>>): Promise<{ reply: Reply<T>; ms: number }> {
    const started = Date.now();
    const reply = await request();
    return { reply, ms: Date.now() - started };
  }

  const proof = async (name: string): Promise<ClaimPackage> => {
    const reply = await api.send<ClaimPackage>('GET', `/claims/epoch/proof/${hk[name]}`);
    expect(reply.status).toBe(200);
    return reply.body;
  };

  type Readiness = { status: string; checks: Record<string, { ok: boolean; error?: string }> };

  it('is ready on /readyz while the database, Redis and the chain answer', async () => {
    const reply = await api.send<Readiness>('GET', '/readyz');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      status: 'ready',
      checks: { database: { ok: true }, redis: { ok: true }, chain: { ok: true, latest_block: expect.any(Number) } },
    });
  });

  describe('Redis stopped', () => {
    let pkg: ClaimPackage;

    beforeAll(async () => {
      pkg = await proof('c');
      await redis.stop();
    });

    it('answers every route that needs Redis 503 redis_unavailable with Retry-After at once', async () => {
      const miner = await signer('//FaultMiner/a');
      const requests: [string, () => Promise<Reply<ErrorBody>>][] = [
        ['signed stats (replay nonces)', () => api.signed<ErrorBody>(miner, 'GET', '/api/v1/miners/stats')],
        ['signed register', () => api.signed<ErrorBody>(miner, 'POST', '/api/v1/miners/register', {})],
        ['a simulated claim (the dev contract)', () => api.send<ErrorBody>('POST', '/claims/epoch/claim', pkg)],
        // The ledger is reconciled from the contract on every read; on the dev chain the contract lives in Redis.
        ['the simulated-claim ledger (reconciled from the dev contract)', () => api.send<ErrorBody>('GET', '/claims/ledger')],
        ['the event stream', () => api.send<ErrorBody>('GET', '/api/v1/events')],
        ['what the dev contract paid a hotkey', () => api.send<ErrorBody>('GET', `/claims/claimed/${hk['c']}`)],
      ];
      const times: number[] = [];
      for (const [what, request] of requests) {
        const { reply, ms } = await timed(request);
        expect([what, reply.status, reply.body.detail?.error]).toEqual([what, 503, 'redis_unavailable']);
        expect(reply.headers?.get('retry-after')).toMatch(/^\d+$/);
        expect(ms).toBeLessThan(FAST_MS);
        times.push(ms);
      }
      process.stderr.write(`faults: Redis stopped → ${times.length} routes that need it answered 503 in ${Math.max(...times)} ms at most\n`);
    });

    it('says so on /readyz at once: 503 not_ready, naming Redis', async () => {
      const { reply, ms } = await timed(() => api.send<Readiness>('GET', '/readyz'));
      expect(reply.status).toBe(503);
      expect(reply.body.status).toBe('not_ready');
      expect(reply.body.checks.redis).toEqual({ ok: false, error: expect.any(String) });
      expect(reply.body.checks.database).toEqual({ ok: true });
      expect(ms).toBeLessThan(FAST_MS);
    });

    it('keeps answering the routes that do not need Redis, at once', async () => {
      const reads = ['/api/v1/miners/leaderboard', '/claims/epochs', '/claims/epoch/10', `/claims/epoch/proof/${hk['a']}`, '/api/v1/results/sota', '/healthz'];
      const times: number[] = [];
      for (const path of reads) {
        const { reply, ms } = await timed(() => api.send('GET', path));
        expect([path, reply.status]).toEqual([path, 200]);
        expect(ms).toBeLessThan(FAST_MS);
        times.push(ms);
      }
      process.stderr.write(`faults: Redis stopped → ${times.length} routes that do not need it answered 200 in ${Math.max(...times)} ms at most\n`);
    });

    it('serves everything again once Redis is back', async () => {
      await redis.start();
      const miner = await signer('//FaultMiner/b');
      const stats = await until('signed reads work again', () => api.signed(miner, 'GET', '/api/v1/miners/stats'), (r) => r.status === 200);
      expect(stats.status).toBe(200);
      expect((await until('/readyz is ready again', () => api.send<Readiness>('GET', '/readyz'), (r) => r.status === 200)).body.status).toBe('ready');
      // The restarted Redis is empty: the dev contract lost its epoch, so a claim is refused on the contract's merits, not 503.
      const claim = await api.send<ErrorBody>('POST', '/claims/epoch/claim', pkg);
      expect(claim.status).not.toBe(503);
    });
  });
});
