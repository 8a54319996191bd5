import { BtAuthSigner } from '@rcs/auth';
import { ErrorCode, PoolBatchDto, PoolLeaseDto } from '@rcs/contracts';
import { ErrorBody, expectStatus, ItemsBody, PoolClient, PoolHarness, signer, startPool } from './support/harness';
import { algorithmRow, freshWindow } from './support/mining';

const STAKE = '1000000000';
const TASK_TYPE = 'cifar10_binary';

/**
 * The attacks an outside probe ran against the pool (issue: "Sybils own the pool's consensus and its payout"),
 * replayed with the stake gate on and miners grouped by owner coldkey (DECISIONS.md §11 Sybil resistance).
 */
describe('pool sybil resistance: the stake gate, owners, batches per window (DECISIONS.md §11)', () => {
  let h: PoolHarness;
  let api: PoolClient;
  // Staked hotkeys: three of one owner (the colluders), four honest ones of distinct owners, one with a uid and no stake.
  let colluders: BtAuthSigner[];
  let honest: BtAuthSigner[];
  let registered: BtAuthSigner;
  let colluderOwner: string;

  const request = (miner: BtAuthSigner, kind: 'evolve' | 'evaluate') => api.signed<PoolBatchDto & ErrorBody>(miner, 'POST', '/api/v1/tasks/request', { task_type: kind });
  const batch = async (miner: BtAuthSigner, kind: 'evolve' | 'evaluate'): Promise<PoolBatchDto> => {
    const reply = await request(miner, kind);
    expectStatus(reply, 200);
    return reply.body;
  };
  const evaluate = (miner: BtAuthSigner, batchId: string, scores: [number, number][]) =>
    api.signed<{ recorded: number } & ItemsBody>(miner, 'POST', `/api/v1/tasks/${batchId}/submit_evaluation`, {
      evaluations: scores.map(([algorithm_id, score]) => ({ algorithm_id, score })),
    });
  const evolve = async (miner: BtAuthSigner, dsl: string): Promise<number> => {
    const issued = await batch(miner, 'evolve');
    const reply = await api.signed<{ status: string; algorithm_id: number }>(miner, 'POST', `/api/v1/tasks/${issued.batch_id}/submit_evolution`, { evolved_function: dsl });
    expectStatus(reply, 200);
    expect(reply.body.status).toBe('accepted');
    return reply.body.algorithm_id;
  };
  const reputationOf = async (miner: BtAuthSigner): Promise<number> => {
    const reply = await api.signed<{ miner: { reputation: number } }>(miner, 'GET', '/api/v1/miners/stats');
    expectStatus(reply, 200);
    return reply.body.miner.reputation;
  };
  const evaluationsOf = async (algorithmId: number): Promise<{ miner_hotkey: string; score: number; in_consensus: boolean | null }[]> =>
    (await h.db.dataSource.query(`SELECT miner_hotkey, score, in_consensus FROM evaluations WHERE algorithm_id = $1 ORDER BY id`, [algorithmId])) as {
      miner_hotkey: string;
      score: number;
      in_consensus: boolean | null;
    }[];

  beforeAll(async () => {
    colluders = await Promise.all([1, 2, 3].map((i) => signer(`//Sybil//colluder//${i}`)));
    honest = await Promise.all([1, 2, 3, 4].map((i) => signer(`//Sybil//honest//${i}`)));
    registered = await signer('//Sybil//registered');
    colluderOwner = (await signer('//Sybil//colluder-owner')).hotkey;
    const honestOwners = await Promise.all(honest.map((_, i) => signer(`//Sybil//honest-owner//${i}`)));
    const neurons = [
      { hotkey: registered.hotkey, stake: '0', uid: 0 },
      ...colluders.map((m) => ({ hotkey: m.hotkey, stake: STAKE, owner: colluderOwner })),
      ...honest.map((m, i) => ({ hotkey: m.hotkey, stake: STAKE, owner: honestOwners[i].hotkey })),
    ];
    h = await startPool({ POOL_STAKE_CHECK: 'on', POOL_DEV_WINDOWS: 'true', DEV_CHAIN_SEED: JSON.stringify({ subnets: { '1': neurons } }) });
    api = new PoolClient(h.url);
  });

  afterAll(() => h.close());

  // Each test works on its own seeds: reset what the previous one left.
  beforeEach(async () => {
    await h.db.dataSource.query(`TRUNCATE evaluations, reputation_events, results, sota_thresholds, assignments, algorithms RESTART IDENTITY CASCADE`);
  });

  const seedAlgorithms = async (dsls: string[]): Promise<number[]> => {
    const rows = (await h.db.dataSource.query(
      `INSERT INTO algorithms (task_type, algorithm_dsl, dsl_hash, input_dim, parent_ids, bar_parent_ids, source, status)
       SELECT $1, d, md5(d), 16, '{}', '{}', 'seed', 'pending' FROM unnest($2::text[]) AS d RETURNING id`,
      [TASK_TYPE, dsls],
    )) as { id: number }[];
    return rows.map((row) => row.id);
  };

  it('refuses fresh keys on every pool-wallet route with 403 insufficient_miner_stake; a uid passes without stake', async () => {
    await seedAlgorithms(['s1 = v0']);
    const fresh = await Promise.all([1, 2, 3].map((i) => signer(`//Sybil//fresh//${i}`)));
    for (const key of fresh) {
      for (const [method, path, body] of [
        ['POST', '/api/v1/miners/register', {}],
        ['GET', '/api/v1/miners/stats', undefined],
        ['POST', '/api/v1/tasks/request', { task_type: 'evaluate' }],
        ['POST', '/api/v1/tasks/lease', { sim_window_number: freshWindow() }],
        ['GET', '/api/v1/tasks/pending_evaluations', undefined],
      ] as const) {
        const refused = await api.signed<ErrorBody>(key, method, path, body);
        expect({ path, status: refused.status, error: refused.body.detail.error }).toEqual({ path, status: 403, error: ErrorCode.InsufficientMinerStake });
        expect(refused.body.detail).toMatchObject({ hotkey: key.hotkey, required: '1000000000', observed: '0' });
      }
      const recipient = await api.recipient<ErrorBody>(key, 'PUT', '/api/v1/miners/recipient-coldkey', colluderOwner);
      expect([recipient.status, recipient.body.detail.error]).toEqual([403, ErrorCode.InsufficientMinerStake]);
    }
    // Nothing was created for them.
    expect(await h.db.dataSource.query(`SELECT hotkey FROM miners WHERE hotkey = ANY($1)`, [fresh.map((k) => k.hotkey)])).toEqual([]);
    expectStatus(await api.signed(registered, 'POST', '/api/v1/miners/register', {}), 200);
    expectStatus(await api.signed(honest[0], 'POST', '/api/v1/miners/register', {}), 200);
  });

  it('three keys of one owner cannot score their own algorithm: no batch holds it, no evaluation of it counts, no reputation, no result', async () => {
    await seedAlgorithms(['s1 = v0', 's1 = v1']);
    const own = await evolve(colluders[0], 's1 = dot(v0, v1)\ns2 = s1 * 0.999');
    for (const mate of colluders.slice(1)) {
      const issued = await batch(mate, 'evaluate');
      expect(issued.algorithms.map((a) => a.id)).not.toContain(own);
      const sneaky = await evaluate(mate, issued.batch_id, [[own, 0.999]]);
      expect([sneaky.status, sneaky.body.detail[0].type]).toEqual([422, 'algorithm_not_assigned']);
    }
    // The author itself never gets it either.
    const authorBatch = await batch(colluders[0], 'evaluate').catch(() => null);
    expect(authorBatch?.algorithms.map((a) => a.id) ?? []).not.toContain(own);
    expect(await algorithmRow(h, own)).toEqual({ status: 'pending', consensus_score: null, evaluations_count: 0 });
    for (const mate of colluders) expect(await reputationOf(mate)).toBe(0);
    expect(await h.db.dataSource.query(`SELECT id FROM results`)).toEqual([]);
    // Other owners do get it, and a newcomer's evolve batch does not start from it while it is unscored.
    expect((await batch(honest[0], 'evaluate')).algorithms.map((a) => a.id)).toContain(own);
  });

  it('counts one evaluation per owner: colluders outvoting an honest evaluator are one voice, and the honest one is not marked out of consensus', async () => {
    const [target] = await seedAlgorithms(['s1 = honest(v0)']);
    const first = await batch(honest[0], 'evaluate');
    expect((await evaluate(honest[0], first.batch_id, [[target, 0.5]])).body.recorded).toBe(1);
    // All three colluders draw their batches before any of them submits: each batch holds the target.
    const drawn = [];
    for (const c of colluders) drawn.push(await batch(c, 'evaluate'));
    for (const d of drawn) expect(d.algorithms.map((a) => a.id)).toContain(target);
    const recorded = [];
    for (const [i, c] of colluders.entries()) recorded.push((await evaluate(c, drawn[i].batch_id, [[target, 0.05]])).body.recorded);
    expect(recorded).toEqual([1, 0, 0]);
    // Before the fix: 0.05 × 3 agreed, the algorithm was scored 0.05 and the honest evaluator lost 0.5.
    expect(await algorithmRow(h, target)).toEqual({ status: 'pending', consensus_score: null, evaluations_count: 2 });
    expect((await evaluationsOf(target)).map((e) => e.in_consensus)).toEqual([null, null]);
    // A colluder drawing again no longer gets it: its owner has evaluated it.
    expect((await batch(colluders[1], 'evaluate').catch(() => ({ algorithms: [] }))).algorithms.map((a) => a.id)).not.toContain(target);
    // Two more honest owners settle it at 0.5; the colluders' one evaluation is out of consensus.
    for (const [i, miner] of honest.slice(1, 3).entries()) {
      const issued = await batch(miner, 'evaluate');
      expectStatus(await evaluate(miner, issued.batch_id, [[target, [0.5, 0.52][i]]]), 200);
    }
    expect(await algorithmRow(h, target)).toEqual({ status: 'scored', consensus_score: 0.5, evaluations_count: 4 });
    expect((await evaluationsOf(target)).map((e) => [e.miner_hotkey, e.in_consensus])).toEqual([
      [honest[0].hotkey, true],
      [colluders[0].hotkey, false],
      [honest[1].hotkey, true],
      [honest[2].hotkey, true],
    ]);
    expect(await reputationOf(honest[0])).toBeGreaterThan(0.99);
  });

  it(`gives one owner at most POOL_BATCHES_PER_WINDOW (6) batches and leases per window, whichever hotkey asks (429 with Retry-After)`, async () => {
    await seedAlgorithms(['s1 = v0', 's1 = v1', 's1 = v2', 's1 = v3', 's1 = v4', 's1 = v5', 's1 = v6', 's1 = v7', 's1 = v8', 's1 = v9']);
    // The probe's 8 evolve-and-evaluate cycles of several keys: cycle through the owner's hotkeys until refused.
    const outcomes: number[] = [];
    for (let cycle = 0; cycle < 8; cycle++) {
      const miner = colluders[cycle % colluders.length];
      const reply = await request(miner, 'evolve');
      outcomes.push(reply.status);
      if (reply.status !== 200) {
        expect(reply.body.detail).toMatchObject({ error: ErrorCode.WindowBatchLimit, limit: 6, owner_coldkey: colluderOwner });
        continue;
      }
      const dsl = `s1 = v${cycle} * 2\ns2 = s1 + ${cycle}`;
      expectStatus(await api.signed(miner, 'POST', `/api/v1/tasks/${reply.body.batch_id}/submit_evolution`, { evolved_function: dsl }), 200);
    }
    expect(outcomes).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
    const refused = await fetch(`${h.url}/api/v1/tasks/request`, {
      method: 'POST',
      headers: { ...colluders[0].signPool(), 'content-type': 'application/json' },
      body: JSON.stringify({ task_type: 'evaluate' }),
    });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Leases count too, in their own window; another owner is untouched.
    const window = freshWindow();
    for (let i = 0; i < 3; i++) {
      const leased = await api.signed<PoolLeaseDto>(colluders[i], 'POST', '/api/v1/tasks/lease', { sim_window_number: window });
      expectStatus(leased, 200);
      expectStatus(await api.signed(colluders[i], 'POST', `/api/v1/tasks/${leased.body.lease_id}/submit_lease`, { evaluations: [], evolutions: [] }), 200);
    }
    expectStatus(await request(honest[3], 'evaluate'), 200);
    // Nothing the owner's keys did put one evaluation in consensus: no reputation, so no share of the local competition.
    for (const c of colluders) expect(await reputationOf(c)).toBe(0);
  });

  it('refuses an evaluate batch closed with no evaluation (422); the batch stays active so it cannot be re-drawn', async () => {
    await seedAlgorithms(['s1 = v0', 's1 = v1']);
    const issued = await batch(honest[3], 'evaluate');
    const empty = await api.signed<ItemsBody>(honest[3], 'POST', `/api/v1/tasks/${issued.batch_id}/submit_evaluation`, { evaluations: [] });
    expect(empty.status).toBe(422);
    expect(empty.body.detail[0]).toMatchObject({ loc: ['body', 'evaluations'] });
    const redraw = await request(honest[3], 'evaluate');
    expect([redraw.status, redraw.body.detail.error]).toEqual([400, ErrorCode.ActiveAssignmentExists]);
    expect(redraw.body.detail.message).toContain('Miner already has active task');
  });
});
