import { BtAuthSigner } from '@rcs/auth';
import { ErrorCode, LeaderboardEntryDto, PoolResultDto, SotaDto } from '@rcs/contracts';
import { ErrorBody, expectStatus, PoolClient, PoolHarness, signer, startPool } from './support/harness';
import { algorithmRow, evaluateInTurn, freshMiner, lease, seed } from './support/mining';

describe('consensus, reputation, results and SOTA (DECISIONS.md §11)', () => {
  let h: PoolHarness;
  let api: PoolClient;
  let validator: BtAuthSigner;

  const inConsensus = async (algorithmId: number): Promise<Record<string, boolean | null>> => {
    const rows = (await h.db.dataSource.query(`SELECT miner_hotkey, in_consensus FROM evaluations WHERE algorithm_id = $1`, [algorithmId])) as {
      miner_hotkey: string;
      in_consensus: boolean | null;
    }[];
    return Object.fromEntries(rows.map((row) => [row.miner_hotkey, row.in_consensus]));
  };
  const reputationOf = async (miner: BtAuthSigner): Promise<number> => {
    const reply = await api.signed<{ miner: { reputation: number } }>(miner, 'GET', '/api/v1/miners/stats');
    expectStatus(reply, 200);
    return reply.body.miner.reputation;
  };
  const results = (who: BtAuthSigner, query = '') => api.signed<PoolResultDto[]>(who, 'GET', `/api/v1/results/${query}`);

  beforeAll(async () => {
    validator = await signer('//Pool//validator');
    h = await startPool({ POOL_DEV_WINDOWS: 'true', VALIDATOR_HOTKEYS: validator.hotkey });
    api = new PoolClient(h.url);
  });

  afterAll(() => h.close());

  it('scores an algorithm at the median of k agreeing evaluations; the outlier is out of consensus', async () => {
    const [id] = await seed(h, 'cons_agree', ['agree = 1']);
    const [outlier] = await evaluateInTurn(api, 'cons_agree', id, [0.3]);
    expect(await algorithmRow(h, id)).toEqual({ status: 'pending', consensus_score: null, evaluations_count: 1 });
    const agreeing = await evaluateInTurn(api, 'cons_agree', id, [0.8, 0.84, 0.77]);
    expect(await algorithmRow(h, id)).toEqual({ status: 'scored', consensus_score: 0.8, evaluations_count: 4 });
    expect(await inConsensus(id)).toEqual({
      [outlier.hotkey]: false,
      ...Object.fromEntries(agreeing.map((m) => [m.hotkey, true])),
    });
  });

  it(`rejects an algorithm after POOL_MAX_EVALUATIONS (7) evaluations without agreement`, async () => {
    const [id] = await seed(h, 'cons_reject', ['reject = 1']);
    const miners = await evaluateInTurn(api, 'cons_reject', id, [0.1, 0.2, 0.4, 0.6, 0.75, 0.9, 1]);
    expect(await algorithmRow(h, id)).toMatchObject({ status: 'rejected', consensus_score: null, evaluations_count: 7 });
    expect(Object.values(await inConsensus(id))).toEqual(miners.map(() => false));
    // A rejected algorithm is no longer handed out.
    const late = await freshMiner();
    const issued = await api.signed<ErrorBody>(late, 'POST', '/api/v1/tasks/lease', { task_type: 'cons_reject', sim_window_number: 1, seed_batch_size: 2 });
    expect(issued.status).toBe(200);
    expect((issued.body as unknown as { evaluate_algorithms: unknown[] }).evaluate_algorithms).toEqual([]);
  });

  it('scores an algorithm exactly once when 20 miners submit its evaluations concurrently', async () => {
    const [id] = await seed(h, 'cons_race', ['race = 1']);
    const miners = await Promise.all(Array.from({ length: 20 }, () => freshMiner('racer')));
    const leases = await Promise.all(miners.map((m) => lease(api, m, 'cons_race')));
    const replies = await Promise.all(
      miners.map((m, i) =>
        api.signed(m, 'POST', `/api/v1/tasks/${leases[i].lease_id}/submit_lease`, { evaluations: [{ algorithm_id: id, score: 0.6 + (i % 3) * 0.001 }], evolutions: [] }),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual(miners.map(() => 200));
    expect(await algorithmRow(h, id)).toMatchObject({ status: 'scored', evaluations_count: 20 });
    const counts = (await h.db.dataSource.query(
      `SELECT (SELECT count(*) FROM results WHERE algorithm_id = $1)::int AS results,
              (SELECT count(*) FROM evaluations WHERE algorithm_id = $1 AND in_consensus)::int AS agreeing,
              (SELECT count(*) FROM reputation_events WHERE algorithm_id = $1)::int AS awards`,
      [id],
    )) as { results: number; agreeing: number; awards: number }[];
    expect(counts[0]).toEqual({ results: 1, agreeing: 20, awards: 20 });
  });

  it('gives the reputation values of §11 for a hand-computed scenario, and ranks the leaderboard by them', async () => {
    const [parent] = await seed(h, 'cons_rep', ['rep = 1']);
    // The author evolves the unscored seed; evaluators then score the seed and the evolution.
    const author = await freshMiner('author');
    const issued = await lease(api, author, 'cons_rep');
    const evolved = await api.signed<{ created_algorithm_ids: number[] }>(author, 'POST', `/api/v1/tasks/${issued.lease_id}/submit_lease`, {
      evaluations: [{ algorithm_id: parent, score: 0.5 }],
      evolutions: [{ parent_algorithm_ids: [parent], algorithm_dsl: 'rep = 2' }],
    });
    expectStatus(evolved, 200);
    const child = evolved.body.created_algorithm_ids[0];
    // Seed: author 0.5, then 0.5, 0.52 agree (author in consensus); one outlier 0.1 came in before.
    const [seedOutlier] = await evaluateInTurn(api, 'cons_rep', parent, [0.1]);
    const [a, b] = await evaluateInTurn(api, 'cons_rep', parent, [0.5, 0.52]);
    expect(await algorithmRow(h, parent)).toMatchObject({ status: 'scored', consensus_score: 0.5 });
    // Child: three agreeing evaluators score it at 0.7 > 0.5: the author earns the evolution bonus.
    const [c, d, e] = await evaluateInTurn(api, 'cons_rep', child, [0.7, 0.69, 0.71]);
    expect(await algorithmRow(h, child)).toMatchObject({ status: 'scored', consensus_score: 0.7 });

    // author: +1 (in consensus on the seed) +2 (evolution improved) = 3; a, b, c, d, e: +1; the outlier: max(0, −0.5) = 0.
    const expected: [BtAuthSigner, number][] = [[author, 3], [a, 1], [b, 1], [c, 1], [d, 1], [e, 1], [seedOutlier, 0]];
    for (const [miner, value] of expected) expect({ miner: miner.hotkey, reputation: await reputationOf(miner) }).toEqual({ miner: miner.hotkey, reputation: expect.closeTo(value, 3) });

    const board = await api.send<LeaderboardEntryDto[]>('GET', '/api/v1/miners/leaderboard?limit=1000&ignored=1');
    expectStatus(board, 200);
    const ours = board.body.filter((row) => expected.some(([m]) => m.hotkey === row.hotkey));
    // Equal amounts decay by their age (older events weigh a little less), so only the groups are fixed here.
    expect(ours.map((row) => row.hotkey)[0]).toBe(author.hotkey);
    expect(ours.map((row) => row.hotkey).slice(1, 6).sort()).toEqual([a, b, c, d, e].map((m) => m.hotkey).sort());
    expect(ours.map((row) => row.hotkey)[6]).toBe(seedOutlier.hotkey);
    expect(ours[0]).toMatchObject({ hotkey: author.hotkey, evaluations: 1, evolutions: 1 });
    const ranks = board.body.map((row) => row.rank);
    expect(ranks).toEqual(ranks.map((_, i) => i + 1));
    for (let i = 1; i < board.body.length; i++) expect(board.body[i - 1].reputation).toBeGreaterThanOrEqual(board.body[i].reputation);
  });

  it('turns a score above the threshold into a pending result that an allowlisted validator verifies (idempotent), raising the SOTA', async () => {
    const [id] = await seed(h, 'sota_a', ['sota = 1']);
    const miner = await freshMiner();
    expect((await api.send<SotaDto>('GET', '/api/v1/results/sota?task_type=sota_a')).body).toEqual({ task_type: 'sota_a', sota_threshold: 0, updated_at: null, result_id: null });
    await evaluateInTurn(api, 'sota_a', id, [0.9, 0.91, 0.89]);

    expect((await results(miner, '?task_type=sota_a')).body).toEqual([]);
    const forbidden = await results(miner, '?task_type=sota_a&status=pending');
    expect([forbidden.status, (forbidden.body as unknown as ErrorBody).detail.error]).toEqual([403, ErrorCode.ValidatorNotAllowlisted]);
    const pending = await results(validator, '?task_type=sota_a&status=pending');
    expect(pending.body).toEqual([
      expect.objectContaining({ algorithm_id: id, task_type: 'sota_a', miner_hotkey: null, algorithm_dsl: 'sota = 1', score: 0.9, evaluations: 3, verified: false, verified_by: null }),
    ]);
    const resultId = pending.body[0].id;

    const refused = await api.signed<ErrorBody>(miner, 'POST', `/api/v1/results/verify/${resultId}`);
    expect([refused.status, refused.body.detail.error]).toEqual([403, ErrorCode.ValidatorNotAllowlisted]);
    for (let i = 0; i < 2; i++) {
      const verified = await api.signed(validator, 'POST', `/api/v1/results/verify/${resultId}`);
      expectStatus(verified, 200);
      expect(verified.body).toEqual({ status: 'verified', result_id: resultId, sota_threshold: 0.9 });
    }
    const unknown = await api.signed<ErrorBody>(validator, 'POST', '/api/v1/results/verify/999999');
    expect([unknown.status, unknown.body.detail.error]).toEqual([404, ErrorCode.ResultNotFound]);
    expect((await api.send<SotaDto>('GET', '/api/v1/results/sota?task_type=sota_a')).body).toEqual({
      task_type: 'sota_a',
      sota_threshold: 0.9,
      updated_at: expect.any(String),
      result_id: resultId,
    });
    const listed = await results(miner, '?task_type=sota_a');
    expect(listed.body).toEqual([expect.objectContaining({ id: resultId, verified: true, verified_by: validator.hotkey, verified_at: expect.any(String) })]);

    // Below the raised threshold an algorithm is scored but is no result.
    const [low] = await seed(h, 'sota_a', ['sota = 2']).then((ids) => ids.slice(-1));
    await evaluateInTurn(api, 'sota_a', low, [0.8, 0.8, 0.8]);
    expect(await algorithmRow(h, low)).toMatchObject({ status: 'scored' });
    expect((await results(validator, '?task_type=sota_a&status=pending')).body).toEqual([]);
  });

  it('verifies a result once when validators verify it concurrently', async () => {
    const [id] = await seed(h, 'sota_race', ['sota race = 1']);
    await evaluateInTurn(api, 'sota_race', id, [0.7, 0.7, 0.7]);
    const [pending] = (await results(validator, '?task_type=sota_race&status=pending')).body;
    const replies = await Promise.all(Array.from({ length: 6 }, () => api.signed(validator, 'POST', `/api/v1/results/verify/${pending.id}`)));
    expect(replies.map((r) => [r.status, r.body])).toEqual(replies.map(() => [200, { status: 'verified', result_id: pending.id, sota_threshold: 0.7 }]));
    expect((await api.send<SotaDto>('GET', '/api/v1/results/sota?task_type=sota_race')).body).toMatchObject({ sota_threshold: 0.7, result_id: pending.id });
  });

  it('filters results by task type, minimum score and limit, newest first', async () => {
    const ids: number[] = [];
    for (const [taskType, score] of [['filt_a', 0.3], ['filt_a', 0.6], ['filt_b', 0.9]] as const) {
      const [id] = (await seed(h, taskType, [`filter ${taskType} ${score}`])).slice(-1);
      await evaluateInTurn(api, taskType, id, [score, score, score]);
      const pending = await results(validator, `?task_type=${taskType}&status=pending`);
      const result = pending.body.find((r) => r.algorithm_id === id);
      expectStatus(await api.signed(validator, 'POST', `/api/v1/results/verify/${result?.id ?? 0}`), 200);
      ids.push(id);
    }
    const only = (reply: { body: PoolResultDto[] }) => reply.body.filter((r) => ids.includes(r.algorithm_id)).map((r) => r.algorithm_id);
    expect(only(await results(validator, '?task_type=filt_a'))).toEqual([ids[1], ids[0]]);
    expect(only(await results(validator, '?task_type=filt_a&min_score=0.5'))).toEqual([ids[1]]);
    expect(only(await results(validator, '?limit=1'))).toEqual([ids[2]]);
    const bad = await results(validator, '?limit=0');
    expect(bad.status).toBe(422);
  });
});
