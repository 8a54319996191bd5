import { BtAuthSigner } from '@rcs/auth';
import { ErrorCode, PoolBatchDto, PoolMaintenanceJob, QueueName } from '@rcs/contracts';
import { JobQueue } from '@rcs/queue';
import { PoolJobs } from '../src/jobs/pool-jobs';
import { ErrorBody, expectStatus, ItemsBody, PoolClient, PoolHarness, startPool } from './support/harness';
import { freshMiner, freshWindow, lease, seed } from './support/mining';

const SEEDS = ['s1 = dot(v0, v1)\ns2 = s1 * 0.5', 's3 = mean(v0)\ns1 = s3 + 1.0', 's1 = norm(v0)', 's2 = max(v0)\ns1 = s2'];

describe('pool assignments: batches and leases (DECISIONS.md §11)', () => {
  let h: PoolHarness;
  let api: PoolClient;
  let seedIds: number[];

  const backdate = (id: string) => h.db.dataSource.query(`UPDATE assignments SET timeout_at = now() - interval '1 second' WHERE id = $1`, [id]);
  const statusOf = async (id: string): Promise<string> =>
    ((await h.db.dataSource.query(`SELECT status FROM assignments WHERE id = $1`, [id])) as { status: string }[])[0].status;
  const batch = async (miner: BtAuthSigner, kind: 'evolve' | 'evaluate'): Promise<PoolBatchDto> => {
    const reply = await api.signed<PoolBatchDto>(miner, 'POST', '/api/v1/tasks/request', { task_type: kind });
    expectStatus(reply, 200);
    return reply.body;
  };

  beforeAll(async () => {
    h = await startPool({ POOL_DEV_WINDOWS: 'true', POOL_ASSIGNMENT_SWEEP_SECONDS: '3600' });
    api = new PoolClient(h.url);
    seedIds = await seed(h, 'cifar10_binary', SEEDS);
  });

  afterAll(() => h.close());

  it('hands out an evaluate batch and an evolve batch of the default task type', async () => {
    const miner = await freshMiner();
    const evaluate = await batch(miner, 'evaluate');
    expect(evaluate).toEqual({ batch_id: expect.any(String), task_type: 'evaluate', algorithms: expect.any(Array), timeout_at: expect.stringMatching(/Z$/) });
    expect(evaluate.algorithms.map((a) => a.id).sort()).toEqual([...seedIds].sort());
    expect(evaluate.algorithms[0]).toEqual({ id: expect.any(Number), algorithm_dsl: expect.any(String), input_dim: 16, task_type: 'cifar10_binary' });
    const pending = await api.signed(miner, 'GET', '/api/v1/tasks/pending_evaluations');
    expect(pending.body).toEqual({ has_pending_evaluations: true, count: 4 });
    expectStatus(await api.signed(miner, 'POST', `/api/v1/tasks/${evaluate.batch_id}/submit_evaluation`, { evaluations: [{ algorithm_id: seedIds[0], score: 0.5 }] }), 200);
    const evolve = await batch(miner, 'evolve');
    // Seeds are the parents while nothing is scored.
    expect(evolve.algorithms.map((a) => a.id)).toEqual(seedIds);
  });

  it('keeps one active assignment per miner: the compat 400 "Miner already has active task"', async () => {
    const miner = await freshMiner();
    await batch(miner, 'evaluate');
    for (const [path, body] of [
      ['/api/v1/tasks/request', { task_type: 'evolve' }],
      ['/api/v1/tasks/lease', { sim_window_number: freshWindow() }],
    ] as const) {
      const refused = await api.signed<ErrorBody>(miner, 'POST', path, body);
      expect(refused.status).toBe(400);
      expect(refused.body.detail.error).toBe(ErrorCode.ActiveAssignmentExists);
      expect(refused.body.detail.message).toContain('Miner already has active task');
    }
  });

  it('holds one active assignment under concurrent requests of one miner', async () => {
    const miner = await freshMiner();
    const replies = await Promise.all(Array.from({ length: 6 }, () => api.signed(miner, 'POST', '/api/v1/tasks/request', { task_type: 'evaluate' })));
    expect(replies.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400, 400]);
  });

  it('issues one lease per miner per window: the compat 400 "Lease already issued for this window. Wait for next window."', async () => {
    const miner = await freshMiner();
    const window = freshWindow();
    const first = await lease(api, miner, 'cifar10_binary', { sim_window_number: window });
    expect(first).toMatchObject({ window_number: window, evolve_budget: 1, timeout_at: expect.stringMatching(/Z$/), gossip: { task_type: 'cifar10_binary', algorithm_ids: [] } });
    expectStatus(await api.signed(miner, 'POST', `/api/v1/tasks/${first.lease_id}/submit_lease`, { evaluations: [], evolutions: [] }), 200);
    const again = await api.signed<ErrorBody>(miner, 'POST', '/api/v1/tasks/lease', { sim_window_number: window });
    expect(again.status).toBe(400);
    expect(again.body.detail.message).toContain('Lease already issued for this window. Wait for next window.');
    await lease(api, miner, 'cifar10_binary', { sim_window_number: window + 1000 });
  });

  it('issues one lease when a miner asks for several in one window at once', async () => {
    const miner = await freshMiner();
    const window = freshWindow();
    const replies = await Promise.all(
      Array.from({ length: 5 }, () => api.signed<ErrorBody>(miner, 'POST', '/api/v1/tasks/lease', { sim_window_number: window })),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400]);
    const leases = (await h.db.dataSource.query(`SELECT count(*)::int AS n FROM assignments WHERE miner_hotkey = $1 AND kind = 'lease'`, [miner.hotkey])) as { n: number }[];
    expect(leases[0].n).toBe(1);
  });

  it('refuses an expired batch with 409 and stores it expired; the sweeper expires the rest', async () => {
    const miner = await freshMiner();
    const issued = await batch(miner, 'evaluate');
    await backdate(issued.batch_id);
    const late = await api.signed<ErrorBody>(miner, 'POST', `/api/v1/tasks/${issued.batch_id}/submit_evaluation`, {
      evaluations: [{ algorithm_id: issued.algorithms[0].id, score: 0.4 }],
    });
    expect([late.status, late.body.detail.error]).toEqual([409, ErrorCode.AssignmentNotActive]);
    expect(await statusOf(issued.batch_id)).toBe('expired');

    const other = await freshMiner();
    const stale = await batch(other, 'evolve');
    await backdate(stale.batch_id);
    const outcome = await h.app.get<JobQueue<PoolJobs>>(JobQueue).runAndWait(QueueName.PoolMaintenance, PoolMaintenanceJob.ExpireAssignments, {}, 10_000);
    expect(outcome).toEqual({ expired: 1 });
    expect(await statusOf(stale.batch_id)).toBe('expired');
    // Expired, the miner may ask again.
    await batch(other, 'evolve');
  });

  it('answers 404 for an unknown batch, 403 for another miner’s, 409 for a used one', async () => {
    const [owner, intruder] = await Promise.all([freshMiner(), freshMiner()]);
    const issued = await batch(owner, 'evaluate');
    const body = { evaluations: [{ algorithm_id: issued.algorithms[0].id, score: 0.1 }] };
    const unknown = await api.signed<ErrorBody>(owner, 'POST', '/api/v1/tasks/00000000-0000-4000-8000-000000000000/submit_evaluation', body);
    expect([unknown.status, unknown.body.detail.error]).toEqual([404, ErrorCode.AssignmentNotFound]);
    const foreign = await api.signed<ErrorBody>(intruder, 'POST', `/api/v1/tasks/${issued.batch_id}/submit_evaluation`, body);
    expect([foreign.status, foreign.body.detail.error]).toEqual([403, ErrorCode.NotAssignmentOwner]);
    expectStatus(await api.signed(owner, 'POST', `/api/v1/tasks/${issued.batch_id}/submit_evaluation`, body), 200);
    const used = await api.signed<ErrorBody>(owner, 'POST', `/api/v1/tasks/${issued.batch_id}/submit_evaluation`, body);
    expect([used.status, used.body.detail.error]).toEqual([409, ErrorCode.AssignmentNotActive]);
  });

  it('answers the compat 404 "Active lease assignment not found" for another miner’s, a used or an expired lease', async () => {
    const [owner, intruder] = await Promise.all([freshMiner(), freshMiner()]);
    const issued = await lease(api, owner, 'cifar10_binary');
    const body = { evaluations: [], evolutions: [] };
    const foreign = await api.signed<ErrorBody>(intruder, 'POST', `/api/v1/tasks/${issued.lease_id}/submit_lease`, body);
    expect([foreign.status, foreign.body.detail.error]).toEqual([404, ErrorCode.LeaseNotFound]);
    expect(foreign.body.detail.message).toContain('Active lease assignment not found');
    await backdate(issued.lease_id);
    const expired = await api.signed<ErrorBody>(owner, 'POST', `/api/v1/tasks/${issued.lease_id}/submit_lease`, body);
    expect(expired.status).toBe(404);
    expect(expired.body.detail.message).toContain('Active lease assignment not found');
    expect(await statusOf(issued.lease_id)).toBe('expired');
  });

  it('refuses more evolutions than the lease budget with 422, and answers a duplicate DSL as a duplicate', async () => {
    const miner = await freshMiner();
    const issued = await lease(api, miner, 'cifar10_binary');
    const evolution = (dsl: string) => ({ parent_algorithm_ids: [seedIds[0]], algorithm_dsl: dsl });
    const tooMany = await api.signed<ItemsBody>(miner, 'POST', `/api/v1/tasks/${issued.lease_id}/submit_lease`, {
      evaluations: [],
      evolutions: [evolution('s1 = a'), evolution('s1 = b')],
    });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.detail[0]).toMatchObject({ loc: ['body', 'evolutions'], type: 'too_many_evolutions' });
    const created = await api.signed<{ created_algorithm_ids: number[] }>(miner, 'POST', `/api/v1/tasks/${issued.lease_id}/submit_lease`, {
      evaluations: [],
      evolutions: [evolution('s1 = dot(v0, v0)\ns2 = s1 * 0.25')],
      public_address: miner.hotkey,
      signature: 'ignored',
      message: 'ignored',
    });
    expectStatus(created, 200);
    expect(created.body.created_algorithm_ids).toHaveLength(1);
    // The same seed with comments and other spacing is the same algorithm: listed, not created.
    const other = await freshMiner();
    const second = await lease(api, other, 'cifar10_binary');
    const copy = `  # my improvement\n${SEEDS[2]}   // tuned\n\n`;
    const duplicate = await api.signed<Record<string, unknown>>(other, 'POST', `/api/v1/tasks/${second.lease_id}/submit_lease`, { evaluations: [], evolutions: [evolution(copy)] });
    expectStatus(duplicate, 200);
    expect(duplicate.body).toMatchObject({ created_algorithm_ids: [], duplicate_algorithm_ids: [seedIds[2]] });
  });

  it('never lets a miner evaluate its own algorithm', async () => {
    const author = await freshMiner('author');
    const evolve = await batch(author, 'evolve');
    const created = await api.signed<{ algorithm_id: number }>(author, 'POST', `/api/v1/tasks/${evolve.batch_id}/submit_evolution`, {
      evolved_function: 's1 = dot(v1, v1)\ns3 = s1 - 2.0',
      parent_functions: [{ id: seedIds[1], code: 'ignored' }, seedIds[2]],
    });
    expectStatus(created, 200);
    const own = created.body.algorithm_id;
    const parents = (await h.db.dataSource.query(`SELECT parent_ids, author_hotkey FROM algorithms WHERE id = $1`, [own])) as { parent_ids: number[]; author_hotkey: string }[];
    expect(parents[0]).toEqual({ parent_ids: [seedIds[1], seedIds[2]], author_hotkey: author.hotkey });
    const evaluate = await batch(author, 'evaluate');
    expect(evaluate.algorithms.map((a) => a.id)).not.toContain(own);
    const sneaky = await api.signed<ItemsBody>(author, 'POST', `/api/v1/tasks/${evaluate.batch_id}/submit_evaluation`, { evaluations: [{ algorithm_id: own, score: 1 }] });
    expect(sneaky.status).toBe(422);
    expect(sneaky.body.detail[0]).toMatchObject({ loc: ['body', 'evaluations', 0, 'algorithm_id'], type: 'algorithm_not_assigned' });
    // Another miner does get it.
    const other = await freshMiner();
    expect((await batch(other, 'evaluate')).algorithms.map((a) => a.id)).toContain(own);
  });

  it('refuses repeated ids and non-finite or missing scores with 422 items', async () => {
    const miner = await freshMiner();
    const issued = await batch(miner, 'evaluate');
    const id = issued.algorithms[0].id;
    const repeated = await api.signed<ItemsBody>(miner, 'POST', `/api/v1/tasks/${issued.batch_id}/submit_evaluation`, {
      evaluations: [{ algorithm_id: id, score: 1 }, { algorithm_id: id, score: 0.9 }],
    });
    expect(repeated.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'evaluations', 1, 'algorithm_id'], type: 'duplicate_algorithm_id' })]);
    const missing = await api.signed<ItemsBody>(miner, 'POST', `/api/v1/tasks/${issued.batch_id}/submit_evaluation`, { evaluations: [{ algorithm_id: id }] });
    expect(missing.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'evaluations', 0, 'score'], type: 'missing' })]);
  });
});
