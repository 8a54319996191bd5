import { ReputationRepository } from '../src/reputation/reputation.repository';
import { PoolClient, PoolHarness, startPool } from './support/harness';

interface Row {
  rank: number;
  hotkey: string;
  reputation: number;
  evaluations: number;
  evolutions: number;
}

/** The leaderboard from the maintained standings answers what summing all mining history answered (DECISIONS.md §11). */
describe('leaderboard from the miner standings', () => {
  let pool: PoolHarness;
  let api: PoolClient;
  let reputation: ReputationRepository;
  const D_DAYS = 10;

  beforeAll(async () => {
    pool = await startPool({ SCORE_EMA_DAYS: String(D_DAYS) });
    api = pool.client;
    reputation = pool.app.get(ReputationRepository);
  }, 60_000);

  afterAll(() => pool?.close());

  const q = (sql: string, params: unknown[] = []): Promise<unknown[]> => pool.db.dataSource.query(sql, params);

  /** The computation the leaderboard did before the standings: every event of every miner, decayed and clamped. */
  async function fromAllHistory(): Promise<Map<string, { reputation: number; evaluations: number; evolutions: number }>> {
    const rows = (await q(
      `SELECT m.hotkey, coalesce(rep.reputation, 0)::float8 AS reputation, coalesce(ev.n, 0)::int AS evaluations, coalesce(al.n, 0)::int AS evolutions
       FROM miners m
       LEFT JOIN (SELECT r.miner_hotkey, ${ReputationRepository.decayedSum('$1')} AS reputation FROM reputation_events r GROUP BY r.miner_hotkey) rep ON rep.miner_hotkey = m.hotkey
       LEFT JOIN (SELECT miner_hotkey, count(*) AS n FROM evaluations GROUP BY miner_hotkey) ev ON ev.miner_hotkey = m.hotkey
       LEFT JOIN (SELECT author_hotkey, count(*) AS n FROM algorithms WHERE author_hotkey IS NOT NULL GROUP BY author_hotkey) al ON al.author_hotkey = m.hotkey`,
      [D_DAYS * 86400],
    )) as { hotkey: string; reputation: number; evaluations: number; evolutions: number }[];
    return new Map(rows.map((r) => [r.hotkey, r]));
  }

  async function expectSameAsAllHistory(): Promise<Row[]> {
    const board = await api.send<Row[]>('GET', '/api/v1/miners/leaderboard?limit=1000');
    expect(board.status).toBe(200);
    const expected = await fromAllHistory();
    expect(board.body).toHaveLength(expected.size);
    for (const row of board.body) {
      const want = expected.get(row.hotkey);
      expect(want).toBeDefined();
      // Both read now() a few ms apart: at D = 10 days that moves a reputation by ~1e-8 of itself.
      expect(row.reputation).toBeCloseTo(want?.reputation ?? NaN, 6);
      expect([row.evaluations, row.evolutions]).toEqual([want?.evaluations, want?.evolutions]);
    }
    // Ordered by reputation, then hotkey, as before.
    const order = [...board.body].sort((a, b) => b.reputation - a.reputation || (a.hotkey < b.hotkey ? -1 : 1)).map((r) => r.hotkey);
    expect(board.body.map((r) => r.hotkey)).toEqual(order);
    return board.body;
  }

  it('equals the decayed, clamped sum over all events: history rebuilt at boot, then new awards merged in, counts by trigger', async () => {
    // lb-g and lb-f have the same history, so the same rank: hotkey order breaks the tie (in the index, not after it).
    const miners = ['lb-a', 'lb-b', 'lb-c', 'lb-d', 'lb-e', 'lb-g', 'lb-f'];
    await q(`INSERT INTO miners (hotkey) SELECT unnest($1::text[])`, [miners]);
    const algorithms = (await q(
      `INSERT INTO algorithms (task_type, algorithm_dsl, dsl_hash, input_dim, parent_ids, bar_parent_ids, author_hotkey, author_owner, source, status)
       SELECT 'cifar10_binary', 'lb' || g, 'lb' || g, 16, '{}', '{}', a, a, CASE WHEN a IS NULL THEN 'seed' ELSE 'evolution' END, 'pending'
       FROM generate_series(1, 40) g, LATERAL (SELECT CASE WHEN g % 3 = 0 THEN NULL ELSE (ARRAY['lb-a', 'lb-b'])[1 + g % 2] END AS a) x RETURNING id`,
    )) as { id: number }[];
    const kinds = ['evaluation_in_consensus', 'evaluation_out_of_consensus', 'evolution_improved'];
    // History over 400 days (40 × D): a: mostly positive; b: positive long ago, negative lately (clamps at 0 now);
    // c: only negative (0); d: one event; e: none.
    const events: [string, string, number, number][] = [];
    algorithms.forEach(({ id }, i) => {
      events.push(['lb-a', kinds[i % 3], id, (i * 10) % 400]);
      events.push(['lb-b', i < 20 ? 'evaluation_in_consensus' : 'evaluation_out_of_consensus', id, i < 20 ? 300 + i : i - 20]);
      events.push(['lb-c', 'evaluation_out_of_consensus', id, i * 3]);
    });
    events.push(['lb-d', 'evolution_improved', algorithms[0].id, 1.5]);
    events.push(['lb-g', 'evaluation_in_consensus', algorithms[3].id, 2], ['lb-f', 'evaluation_in_consensus', algorithms[3].id, 2]);
    await q(
      `INSERT INTO reputation_events (miner_hotkey, kind, algorithm_id, amount, created_at)
       SELECT h, k, a, CASE k WHEN 'evaluation_in_consensus' THEN 1 WHEN 'evaluation_out_of_consensus' THEN -0.5 ELSE 2 END, now() - make_interval(secs => d * 86400)
       FROM unnest($1::text[], $2::text[], $3::int[], $4::float8[]) AS t(h, k, a, d)`,
      [events.map((e) => e[0]), events.map((e) => e[1]), events.map((e) => e[2]), events.map((e) => e[3])],
    );
    const [{ id: assignment }] = (await q(
      `INSERT INTO assignments (miner_hotkey, owner_coldkey, kind, status, task_type, algorithm_ids, seed_ids, evolve_budget, timeout_at)
       VALUES ('lb-c', 'lb-c', 'evaluate', 'submitted', 'cifar10_binary', '{}', '{}', 0, now()) RETURNING id`,
    )) as { id: string }[];
    await q(
      `INSERT INTO evaluations (algorithm_id, miner_hotkey, owner_coldkey, assignment_id, score) SELECT a, 'lb-c', 'lb-c', $2, 0.5 FROM unnest($1::int[]) a`,
      [algorithms.slice(0, 7).map((a) => a.id), assignment],
    );
    // Rows written straight into the table (as before the migration) are summed by the rebuild a boot runs.
    await pool.db.dataSource.transaction((manager) => reputation.rebuildStandings(manager));
    const before = await expectSameAsAllHistory();
    expect(before.find((r) => r.hotkey === 'lb-c')?.reputation).toBe(0);
    const tied = before.filter((r) => r.hotkey === 'lb-f' || r.hotkey === 'lb-g');
    expect(tied.map((r) => r.hotkey)).toEqual(['lb-f', 'lb-g']);
    expect(tied[1].rank).toBe(tied[0].rank + 1);
    expect(tied[0].reputation).toBeGreaterThan(0);

    // New awards land on standings whose time is older: merged by re-decaying, as `award` does in production.
    await pool.db.dataSource.transaction((manager) =>
      reputation.award(manager, [
        { minerHotkey: 'lb-b', kind: 'evaluation_in_consensus', algorithmId: algorithms[39].id },
        { minerHotkey: 'lb-b', kind: 'evolution_improved', algorithmId: algorithms[39].id },
        { minerHotkey: 'lb-e', kind: 'evaluation_out_of_consensus', algorithmId: algorithms[1].id },
        { minerHotkey: 'lb-d', kind: 'evaluation_in_consensus', algorithmId: algorithms[2].id },
      ]),
    );
    // A repeated award is kept once, in the events and in the standing.
    await pool.db.dataSource.transaction((manager) => reputation.award(manager, [{ minerHotkey: 'lb-d', kind: 'evaluation_in_consensus', algorithmId: algorithms[2].id }]));
    const after = await expectSameAsAllHistory();
    expect(after.find((r) => r.hotkey === 'lb-e')?.reputation).toBe(0);
  });

  it('rebuilds the sums at boot when SCORE_EMA_DAYS changed', async () => {
    await q(`UPDATE miner_standings SET decay_seconds = 1 WHERE reputation_at IS NOT NULL`);
    await reputation.onApplicationBootstrap();
    expect(await q(`SELECT DISTINCT decay_seconds FROM miner_standings`)).toEqual([{ decay_seconds: D_DAYS * 86400 }]);
    await expectSameAsAllHistory();
  });
});
