import { randomBytes } from 'node:crypto';
import { accountIdToSs58, ss58ToAccountId } from '@rcs/merkle';
import { ReputationRepository } from '../src/reputation/reputation.repository';
import { PoolClient, PoolHarness, startPool } from './support/harness';

interface Entry {
  rank: number;
  hotkey: string;
  reputation: number;
  evaluations: number;
  evolutions: number;
  last_seen_at: string;
}

/** GET /api/v1/miners/{hotkey}/standing: one miner's leaderboard entry wherever it ranks, by any SS58 spelling. */
describe('GET /api/v1/miners/{hotkey}/standing', () => {
  let pool: PoolHarness;
  let api: PoolClient;
  /** 150 miners with a positive reputation (ties among them), 5 whose history sums below 0, 10 without any event. */
  const ranked = Array.from({ length: 150 }, () => accountIdToSs58(randomBytes(32), 42));
  const negative = Array.from({ length: 5 }, () => accountIdToSs58(randomBytes(32), 42));
  const silent = Array.from({ length: 10 }, () => accountIdToSs58(randomBytes(32), 42));

  beforeAll(async () => {
    pool = await startPool({ SCORE_EMA_DAYS: '10' });
    api = pool.client;
    const q = (sql: string, params: unknown[] = []): Promise<unknown[]> => pool.db.dataSource.query(sql, params);
    await q(`INSERT INTO miners (hotkey) SELECT unnest($1::text[])`, [[...ranked, ...negative, ...silent]]);
    const [{ id: algorithm }] = (await q(
      `INSERT INTO algorithms (task_type, algorithm_dsl, dsl_hash, input_dim, parent_ids, bar_parent_ids, source, status)
       VALUES ('cifar10_binary', 'standing', 'standing', 16, '{}', '{}', 'seed', 'pending') RETURNING id`,
    )) as { id: number }[];
    // Amounts 1..40: every fourth-or-so miner shares its reputation with another, so the hotkey breaks ties.
    const holders = [...ranked, ...negative];
    await q(
      `INSERT INTO reputation_events (miner_hotkey, kind, algorithm_id, amount)
       SELECT h, 'evaluation_in_consensus', $2, a FROM unnest($1::text[], $3::float8[]) AS t(h, a)`,
      [holders, algorithm, holders.map((_, i) => (i < ranked.length ? 1 + (i % 40) : -0.5))],
    );
    await pool.db.dataSource.transaction((manager) => pool.app.get(ReputationRepository).rebuildStandings(manager));
  }, 60_000);

  afterAll(() => pool?.close());

  const standing = (hotkey: string) => api.send<Entry>('GET', `/api/v1/miners/${encodeURIComponent(hotkey)}/standing`);

  it('answers every miner exactly as the leaderboard lists it, rank included, past the first page and below 0', async () => {
    const board = await api.send<Entry[]>('GET', '/api/v1/miners/leaderboard?limit=1000');
    expect(board.status).toBe(200);
    expect(board.body).toHaveLength(ranked.length + negative.length + silent.length);
    // The web UI reads the first 100: these miners are found only through their standing.
    expect(board.body.slice(100).some((e) => ranked.includes(e.hotkey))).toBe(true);
    for (const entry of board.body) {
      const one = await standing(entry.hotkey);
      expect(one.status).toBe(200);
      expect({ ...one.body, reputation: 0 }).toEqual({ ...entry, reputation: 0 });
      // Both read now() some ms apart: at D = 10 days the decay moves a reputation of 40 by ~1e-7 per ms.
      expect(one.body.reputation).toBeCloseTo(entry.reputation, 4);
    }
    const zero = board.body.filter((e) => negative.includes(e.hotkey) || silent.includes(e.hotkey));
    expect(zero.every((e) => e.reputation === 0 && e.rank > ranked.length)).toBe(true);
  });

  it('takes any SS58 spelling of the hotkey and answers the canonical one', async () => {
    const hotkey = ranked[120];
    const polkadot = accountIdToSs58(ss58ToAccountId(hotkey), 0);
    expect(polkadot).not.toBe(hotkey);
    const [canonical, other] = [await standing(hotkey), await standing(polkadot)];
    expect(other.status).toBe(200);
    expect(other.body.hotkey).toBe(hotkey);
    expect(other.body.rank).toBe(canonical.body.rank);
  });

  it('answers 404 hotkey_not_found in the error shape for a hotkey the pool never saw, and for one that is no SS58 address', async () => {
    const stranger = accountIdToSs58(randomBytes(32), 42);
    for (const hotkey of [stranger, 'not-an-address']) {
      const reply = await standing(hotkey);
      expect(reply.status).toBe(404);
      expect(reply.body).toEqual({ detail: { error: 'hotkey_not_found', message: `No pool miner with hotkey ${hotkey}.`, hotkey } });
    }
  });

  it('is documented in /openapi.json as a public read with LeaderboardEntryDto', async () => {
    const document = (await (await fetch(`${pool.url}/openapi.json`)).json()) as {
      paths: Record<string, { get?: { responses: Record<string, { content?: { 'application/json'?: { schema?: { $ref?: string } } } }> } }>;
    };
    const route = document.paths['/api/v1/miners/{miner_hotkey}/standing'].get;
    expect(route?.responses['200'].content?.['application/json']?.schema?.$ref).toBe('#/components/schemas/LeaderboardEntryDto');
    expect(Object.keys(route?.responses ?? {}).sort()).toEqual(['200', '404']);
  });
});
