import { randomUUID } from 'node:crypto';
import { BtAuthSigner } from '@rcs/auth';
import { ClaimDto, CompetitionMode, MaintenanceJob, PARTICIPATION_DISCLAIMER, QueueName, TaskState } from '@rcs/contracts';
import { JobQueue } from '@rcs/queue';
import { ScheduleKeeper } from '../src/jobs/schedule-keeper';
import { CoordinatorJobs } from '../src/jobs/coordinator-jobs';
import { CoordinatorHarness, startCoordinator, startCoordinatorForSuite } from './harness';
import { errorOf, expectReplyFields, expectStatus, itemsOf, signerFor, TestClient } from './submissions-fixtures';
import { backdateClaim, claimStatusInDb, insertSubmission, insertTask, insertWorkItem, TaskRow } from './support/competition-rows';

const CLAIM_FIELDS = [
  'base_submission_id',
  'claim_description',
  'created_at',
  'expires_at',
  'id',
  'miner_hotkey',
  'status',
  'task_id',
  'updated_at',
  'work_item_id',
];
const DESCRIPTION = 'Try a cosine learning-rate schedule.';

type ErrorBody = { detail: Record<string, unknown> };

describe('claims', () => {
  let h: CoordinatorHarness;
  let api: TestClient;
  let alice: BtAuthSigner;
  let bob: BtAuthSigner;
  let charlie: BtAuthSigner;

  const claimTask = (signer: BtAuthSigner, taskId: string, body: unknown = { claim_description: DESCRIPTION }) =>
    api.signed<ClaimDto>(signer, 'POST', `/api/v1/tasks/${taskId}/claim`, body);
  const cancel = (signer: BtAuthSigner, claimId: string) => api.signed<ClaimDto>(signer, 'POST', `/api/v1/claims/${claimId}/cancel`);
  const listClaims = async (query: string): Promise<ClaimDto[]> => {
    const reply = await api.anonymous<ClaimDto[]>('GET', `/api/v1/claims?${query}`);
    expectStatus(reply, 200);
    return reply.body;
  };
  const claimed = async (signer: BtAuthSigner, taskId: string): Promise<ClaimDto> => {
    const reply = await claimTask(signer, taskId);
    expectStatus(reply, 201);
    return reply.body;
  };
  const sweep = () =>
    h.app.get<JobQueue<CoordinatorJobs>>(JobQueue).runAndWait(QueueName.Maintenance, MaintenanceJob.ExpireClaims, {}, 10_000);
  const liveTask = (): Promise<TaskRow> => insertTask(h.db);

  beforeAll(async () => {
    // The scheduled sweep stays out of the way; tests run the sweep job themselves.
    h = await startCoordinator({ CLAIM_RATE_LIMIT_MAX: '0', CLAIM_SWEEP_INTERVAL_SECONDS: '3600' });
    api = new TestClient(h);
    [alice, bob, charlie] = await Promise.all([signerFor('//Alice'), signerFor('//Bob'), signerFor('//Charlie')]);
  });

  afterAll(async () => {
    await h.close();
  });

  describe('POST /api/v1/tasks/{task_id}/claim', () => {
    it('answers 201 with an active claim for the TTL and the participation disclaimer', async () => {
      const task = await liveTask();
      const reply = await claimTask(alice, task.id);
      expectStatus(reply, 201);
      const { participation_disclaimer, ...claim } = reply.body;
      expect(Object.keys(claim).sort()).toEqual(CLAIM_FIELDS);
      expect(participation_disclaimer).toEqual(PARTICIPATION_DISCLAIMER);
      expect(claim).toMatchObject({
        task_id: task.id,
        miner_hotkey: alice.hotkey,
        claim_description: DESCRIPTION,
        base_submission_id: null,
        work_item_id: null,
        status: 'active',
      });
      expect(Date.parse(claim.expires_at) - Date.parse(claim.created_at)).toBe(h.config.claimTtlSeconds * 1000);
      expect(await listClaims(`task_id=${task.id}`)).toEqual([{ ...claim, participation_disclaimer: PARTICIPATION_DISCLAIMER }]);
    });

    it('answers 401 without a signature', async () => {
      const task = await liveTask();
      const reply = await api.anonymous<ErrorBody>('POST', `/api/v1/tasks/${task.id}/claim`, { claim_description: DESCRIPTION });
      expect(reply.status).toBe(401);
      expect(errorOf(reply)).toBe('missing_signature');
    });

    it('answers 404 task_not_found for unknown and malformed task ids', async () => {
      for (const id of [randomUUID(), 'not-a-uuid']) {
        const reply = await claimTask(alice, id);
        expect(reply.status).toBe(404);
        expect(errorOf(reply)).toBe('task_not_found');
      }
    });

    it.each([TaskState.Paused, TaskState.Closed])('answers 409 task_not_live on a %s task', async (state) => {
      const task = await insertTask(h.db, { state });
      const reply = await claimTask(alice, task.id);
      expect(reply.status).toBe(409);
      expect(reply.body).toMatchObject({ detail: { error: 'task_not_live', task_id: task.id, task_state: state } });
      expect(await listClaims(`task_id=${task.id}`)).toEqual([]);
    });

    it('answers 409 duplicate_active_claim naming the claim the miner already holds', async () => {
      const task = await liveTask();
      const first = await claimed(alice, task.id);
      const second = await claimTask(alice, task.id);
      expect(second.status).toBe(409);
      expect(second.body).toMatchObject({ detail: { error: 'duplicate_active_claim', claim_id: first.id, task_id: task.id } });
      // Another miner is not affected.
      expect((await claimTask(bob, task.id)).status).toBe(201);
    });

    it('creates exactly one claim when one miner sends several claims at once', async () => {
      const task = await liveTask();
      const replies = await Promise.all(Array.from({ length: 6 }, () => claimTask(charlie, task.id)));
      const created = replies.filter((reply) => reply.status === 201);
      expect(created).toHaveLength(1);
      const winner = created[0].body.id;
      for (const reply of replies.filter((r) => r.status !== 201)) {
        expect(reply.status).toBe(409);
        expect(reply.body).toMatchObject({ detail: { error: 'duplicate_active_claim', claim_id: winner } });
      }
      expect((await listClaims(`task_id=${task.id}`)).map((claim) => claim.id)).toEqual([winner]);
    });

    it('accepts base_submission_id naming a submission of the same task', async () => {
      const task = await liveTask();
      const base = await insertSubmission(h.db, { taskId: task.id, minerHotkey: bob.hotkey });
      const reply = await claimTask(alice, task.id, { claim_description: DESCRIPTION, base_submission_id: base });
      expectStatus(reply, 201);
      expect(reply.body.base_submission_id).toBe(base);
    });

    it('answers 422 base_submission_invalid for another task, an unknown id or a malformed id', async () => {
      const task = await liveTask();
      const other = await liveTask();
      const foreign = await insertSubmission(h.db, { taskId: other.id, minerHotkey: bob.hotkey });
      const cases: [string, string][] = [
        [foreign, 'other_task'],
        [randomUUID(), 'not_found'],
        ['not-a-uuid', 'not_found'],
      ];
      for (const [base, reason] of cases) {
        const reply = await claimTask(alice, task.id, { claim_description: DESCRIPTION, base_submission_id: base });
        expect(itemsOf(reply)).toEqual([['base_submission_invalid', 'body.base_submission_id']]);
        expect(reply.body).toMatchObject({ detail: [{ input: base, ctx: { reason } }] });
      }
      expect(await listClaims(`task_id=${task.id}`)).toEqual([]);
    });

    it('answers 422 with one item per violation of the body', async () => {
      const task = await liveTask();
      expect(itemsOf(await claimTask(alice, task.id, { claim_description: 'x'.repeat(7) }))).toEqual([
        ['string_too_short', 'body.claim_description'],
      ]);
      expect(itemsOf(await claimTask(alice, task.id, { claim_description: 'x'.repeat(4001) }))).toEqual([
        ['string_too_long', 'body.claim_description'],
      ]);
      expect(itemsOf(await claimTask(alice, task.id, { claim_description: DESCRIPTION, priority: 1 }))).toEqual([
        ['extra_forbidden', 'body.priority'],
      ]);
      expect(itemsOf(await claimTask(alice, task.id, {}))).toEqual([['missing', 'body.claim_description']]);
      expect(itemsOf(await claimTask(alice, task.id, { claim_description: 8, base_submission_id: 3 }))).toEqual([
        ['string_type', 'body.claim_description'],
        ['string_type', 'body.base_submission_id'],
      ]);
      // The bounds themselves are accepted.
      expect((await claimTask(alice, task.id, { claim_description: 'x'.repeat(8) })).status).toBe(201);
      expect((await claimTask(bob, task.id, { claim_description: 'x'.repeat(4000) })).status).toBe(201);
    });
  });

  describe('GET /api/v1/claims', () => {
    it('lists newest first, filtered by task and status, paged', async () => {
      const task = await liveTask();
      const first = await claimed(alice, task.id);
      const second = await claimed(bob, task.id);
      const third = await claimed(charlie, task.id);
      expectStatus(await cancel(bob, second.id), 200);
      expect((await listClaims(`task_id=${task.id}`)).map((c) => c.id)).toEqual([third.id, second.id, first.id]);
      expect((await listClaims(`task_id=${task.id}&limit=2`)).map((c) => c.id)).toEqual([third.id, second.id]);
      expect((await listClaims(`task_id=${task.id}&limit=2&offset=2`)).map((c) => c.id)).toEqual([first.id]);
      expect((await listClaims(`task_id=${task.id}&status=active`)).map((c) => c.id)).toEqual([third.id, first.id]);
      expect((await listClaims(`task_id=${task.id}&status=cancelled`)).map((c) => c.id)).toEqual([second.id]);
      expect(await listClaims('task_id=not-a-uuid')).toEqual([]);
      expect((await listClaims('limit=1000')).length).toBeGreaterThanOrEqual(3);
    });

    it('carries the participation disclaimer on every row (DECISIONS §18, as BitSota does)', async () => {
      const task = await liveTask();
      await claimed(alice, task.id);
      const cancelled = await claimed(bob, task.id);
      expectStatus(await cancel(bob, cancelled.id), 200);
      const rows = await listClaims(`task_id=${task.id}`);
      expect(rows).toHaveLength(2);
      for (const row of rows) expect(row.participation_disclaimer).toEqual(PARTICIPATION_DISCLAIMER);
    });

    it('answers 422 for a status outside ClaimStatus and paging out of bounds', async () => {
      expect(itemsOf(await api.anonymous('GET', '/api/v1/claims?status=open'))).toEqual([['enum', 'query.status']]);
      expect(itemsOf(await api.anonymous('GET', '/api/v1/claims?limit=0&offset=-1'))).toEqual([
        ['greater_than_equal', 'query.limit'],
        ['greater_than_equal', 'query.offset'],
      ]);
      expect(itemsOf(await api.anonymous('GET', '/api/v1/claims?limit=1001'))).toEqual([['less_than_equal', 'query.limit']]);
      expect(itemsOf(await api.anonymous('GET', '/api/v1/claims?page=2'))).toEqual([['extra_forbidden', 'query.page']]);
    });
  });

  describe('GET /api/v1/claims/{claim_id}', () => {
    it('answers any caller, unsigned, the claim as the list shows it', async () => {
      const task = await liveTask();
      const claim = await claimed(alice, task.id);
      const reply = await api.anonymous<ClaimDto>('GET', `/api/v1/claims/${claim.id}`);
      expectStatus(reply, 200);
      expect(reply.body).toEqual((await listClaims(`task_id=${task.id}`))[0]);
      expect(reply.body).toMatchObject({ id: claim.id, task_id: task.id, status: 'active', participation_disclaimer: PARTICIPATION_DISCLAIMER });
    });

    it('answers a claim past its TTL as expired, and it is expired from then on', async () => {
      const task = await liveTask();
      const claim = await claimed(alice, task.id);
      await backdateClaim(h.db, claim.id);
      const reply = await api.anonymous<ClaimDto>('GET', `/api/v1/claims/${claim.id}`);
      expectStatus(reply, 200);
      expect(reply.body.status).toBe('expired');
      expect(await claimStatusInDb(h.db, claim.id)).toBe('expired');
    });

    it('answers 404 claim_not_found for unknown and malformed ids', async () => {
      for (const id of [randomUUID(), 'not-a-uuid']) {
        const reply = await api.anonymous<ErrorBody>('GET', `/api/v1/claims/${id}`);
        expectStatus(reply, 404);
        expect(errorOf(reply)).toBe('claim_not_found');
        expect(reply.body.detail['claim_id']).toBe(id);
      }
    });
  });

  describe('POST /api/v1/claims/{claim_id}/cancel', () => {
    it('lets the owner cancel an active claim once', async () => {
      const task = await liveTask();
      const claim = await claimed(alice, task.id);
      const reply = await cancel(alice, claim.id);
      expectReplyFields(reply, 200, CLAIM_FIELDS);
      expect(reply.body).toMatchObject({ id: claim.id, status: 'cancelled' });
      const again = await cancel(alice, claim.id);
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ detail: { error: 'claim_not_active', claim_id: claim.id, claim_status: 'cancelled' } });
      // The task can be claimed again.
      expect((await claimTask(alice, task.id)).status).toBe(201);
    });

    it('answers 403 not_claim_owner to another miner and leaves the claim active', async () => {
      const task = await liveTask();
      const claim = await claimed(alice, task.id);
      const reply = await cancel(bob, claim.id);
      expect(reply.status).toBe(403);
      expect(errorOf(reply)).toBe('not_claim_owner');
      expect(await claimStatusInDb(h.db, claim.id)).toBe('active');
    });

    it('answers 404 claim_not_found for unknown and malformed ids, 401 unsigned', async () => {
      for (const id of [randomUUID(), 'not-a-uuid']) {
        const reply = await cancel(alice, id);
        expect(reply.status).toBe(404);
        expect(errorOf(reply)).toBe('claim_not_found');
      }
      const task = await liveTask();
      const claim = await claimed(alice, task.id);
      expect((await api.anonymous('POST', `/api/v1/claims/${claim.id}/cancel`)).status).toBe(401);
    });

    it('answers 409 claim_not_active for a submitted claim', async () => {
      const task = await liveTask();
      const claim = await claimed(alice, task.id);
      await h.db.dataSource.query(`UPDATE claims SET status = 'submitted' WHERE id = $1`, [claim.id]);
      const reply = await cancel(alice, claim.id);
      expect(reply.status).toBe(409);
      expect(reply.body).toMatchObject({ detail: { error: 'claim_not_active', claim_status: 'submitted' } });
    });

    it('answers 409 claim_expired for a claim past its TTL, and the claim is expired from then on', async () => {
      const task = await liveTask();
      const claim = await claimed(alice, task.id);
      await backdateClaim(h.db, claim.id);
      const reply = await cancel(alice, claim.id);
      expect(reply.status).toBe(409);
      expect(reply.body).toMatchObject({ detail: { error: 'claim_expired', claim_id: claim.id, claim_status: 'expired' } });
      expect(await claimStatusInDb(h.db, claim.id)).toBe('expired');
      expect((await cancel(alice, claim.id)).body).toMatchObject({ detail: { error: 'claim_expired' } });
    });
  });

  describe('expiry', () => {
    it('the sweeper job expires every active claim past its TTL and nothing else', async () => {
      const task = await liveTask();
      const stale = await claimed(alice, task.id);
      const fresh = await claimed(bob, task.id);
      await backdateClaim(h.db, stale.id);
      expect(await sweep()).toEqual({ expired: 1, reopened: 0 });
      expect(await claimStatusInDb(h.db, stale.id)).toBe('expired');
      expect(await claimStatusInDb(h.db, fresh.id)).toBe('active');
      expect(await sweep()).toEqual({ expired: 0, reopened: 0 });
    });

    it('is scheduled as a repeatable job at boot', async () => {
      await h.app.get(ScheduleKeeper).scheduled;
      const schedulers = await h.app.get<JobQueue<CoordinatorJobs>>(JobQueue).queue(QueueName.Maintenance).getJobSchedulers();
      expect(schedulers).toEqual(
        expect.arrayContaining([expect.objectContaining({ key: 'expire-claims', name: MaintenanceJob.ExpireClaims, every: 3_600_000 })]),
      );
    });

    it('on use: a claim past its TTL is listed as expired, never active', async () => {
      const task = await liveTask();
      const claim = await claimed(alice, task.id);
      await backdateClaim(h.db, claim.id);
      expect(await listClaims(`task_id=${task.id}&status=active`)).toEqual([]);
      expect(await listClaims(`task_id=${task.id}`)).toEqual([expect.objectContaining({ id: claim.id, status: 'expired' })]);
      expect(await claimStatusInDb(h.db, claim.id)).toBe('expired');
    });

    it('on use: a miner whose claim is past its TTL can claim the task again', async () => {
      const task = await liveTask();
      const old = await claimed(alice, task.id);
      await backdateClaim(h.db, old.id);
      const renewed = await claimed(alice, task.id);
      expect(renewed.id).not.toBe(old.id);
      expect(await claimStatusInDb(h.db, old.id)).toBe('expired');
      expect((await listClaims(`task_id=${task.id}`)).map((c) => [c.id, c.status])).toEqual([
        [renewed.id, 'active'],
        [old.id, 'expired'],
      ]);
    });
  });

  it('documents the claim routes in /openapi.json', async () => {
    const document = (await (await fetch(`${h.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(document.paths['/api/v1/claims'])).toEqual(['get']);
    expect(Object.keys(document.paths['/api/v1/tasks/{task_id}/claim'])).toEqual(['post']);
    expect(Object.keys(document.paths['/api/v1/claims/{claim_id}/cancel'])).toEqual(['post']);
    expect(Object.keys(document.paths['/api/v1/claims/{claim_id}'])).toEqual(['get']);
    expect(JSON.stringify(document.paths['/api/v1/tasks/{task_id}/claim'])).toContain('#/components/schemas/ClaimDto');
  });

  it('claims on a centerless task follow the same rules', async () => {
    const task = await insertTask(h.db, { mode: CompetitionMode.Centerless });
    await claimed(alice, task.id);
    expect((await claimTask(alice, task.id)).status).toBe(409);
  });
});

describe('claim rate limit', () => {
  let h: CoordinatorHarness;
  let api: TestClient;

  startCoordinatorForSuite({ CLAIM_RATE_LIMIT_MAX: '2', CLAIM_RATE_LIMIT_WINDOW_SECONDS: '600' }, (started) => {
    h = started;
    api = new TestClient(h);
  });

  it('answers 429 rate_limited with Retry-After past the limit, per hotkey; rejected bodies do not count', async () => {
    const [dave, eve] = await Promise.all([signerFor('//Dave'), signerFor('//Eve')]);
    const tasks = await Promise.all([insertTask(h.db), insertTask(h.db), insertTask(h.db)]);
    const claim = (signer: BtAuthSigner, taskId: string, body: unknown = { claim_description: DESCRIPTION }) =>
      api.signed<ErrorBody>(signer, 'POST', `/api/v1/tasks/${taskId}/claim`, body);

    expect((await claim(dave, tasks[0].id, { claim_description: 'short' })).status).toBe(422);
    expect((await claim(dave, tasks[0].id)).status).toBe(201);
    expect((await claim(dave, tasks[1].id)).status).toBe(201);
    const limited = await claim(dave, tasks[2].id);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ detail: { error: 'rate_limited', limit: 2, window_seconds: 600 } });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(await claimsOf(h, tasks[2].id)).toBe(0);
    // Work-item claims share the limit.
    const itemId = await insertWorkItem(h.db, tasks[2].id);
    const itemClaim = await api.signed<ErrorBody>(dave, 'POST', `/api/v1/work-items/${itemId}/claim`, {});
    expect(itemClaim.status).toBe(429);
    expect(errorOf(itemClaim)).toBe('rate_limited');
    expect((await claim(eve, tasks[2].id)).status).toBe(201);
  });
});

describe('claim stake gate', () => {
  let h: CoordinatorHarness;
  let api: TestClient;
  let staked: BtAuthSigner;
  let unstaked: BtAuthSigner;

  beforeAll(async () => {
    [staked, unstaked] = await Promise.all([signerFor('//Ferdie'), signerFor('//Unstaked')]);
    h = await startCoordinator({
      STAKE_CHECK: 'on',
      MINER_MIN_STAKE_RAO: '1000',
      DEV_CHAIN_SEED: JSON.stringify({ subnets: { 1: [{ hotkey: staked.hotkey, stake: '5000', uid: null }] } }),
    });
    api = new TestClient(h);
  });

  afterAll(async () => {
    await h.close();
  });

  it('answers 403 insufficient_miner_stake to an unstaked hotkey and 201 to a staked one', async () => {
    const task = await insertTask(h.db);
    const body = { claim_description: DESCRIPTION };
    const refused = await api.signed<ErrorBody>(unstaked, 'POST', `/api/v1/tasks/${task.id}/claim`, body);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      detail: { error: 'insufficient_miner_stake', hotkey: unstaked.hotkey, netuid: 1, required: '1000', observed: '0' },
    });
    expect(await claimsOf(h, task.id)).toBe(0);
    const accepted = await api.signed<ClaimDto>(staked, 'POST', `/api/v1/tasks/${task.id}/claim`, body);
    expectStatus(accepted, 201);
    // Cancelling is stake-gated too.
    const cancelRefused = await api.signed<ErrorBody>(unstaked, 'POST', `/api/v1/claims/${accepted.body.id}/cancel`);
    expect(cancelRefused.status).toBe(403);
    expect(errorOf(cancelRefused)).toBe('insufficient_miner_stake');
  });
});

async function claimsOf(h: CoordinatorHarness, taskId: string): Promise<number> {
  const rows = (await h.db.dataSource.query(`SELECT count(*)::int AS n FROM claims WHERE task_id = $1`, [taskId])) as { n: number }[];
  return rows[0].n;
}
