import { randomUUID } from 'node:crypto';
import { BtAuthSigner } from '@rcs/auth';
import { ClaimDto, MaintenanceJob, PARTICIPATION_DISCLAIMER, QueueName, SubmissionDto, TaskState, WorkItemDto } from '@rcs/contracts';
import { JobQueue } from '@rcs/queue';
import { CoordinatorJobs } from '../src/jobs/coordinator-jobs';
import { CoordinatorHarness, startCoordinatorForSuite } from './harness';
import { errorOf, expectStatus, itemsOf, ScratchRepo, signerFor, TestClient } from './submissions-fixtures';
import { backdateClaim, claimStatusInDb, insertTask, insertWorkItem, setTaskState } from './support/competition-rows';

const WORK_ITEM_FIELDS = [
  'claim_id',
  'completed_submission_id',
  'created_at',
  'description',
  'id',
  'idea_submission_id',
  'parent_submission_id',
  'priority',
  'source',
  'status',
  'task_id',
  'title',
  'updated_at',
];

describe('work items', () => {
  let h: CoordinatorHarness;
  let api: TestClient;
  let alice: BtAuthSigner;
  let bob: BtAuthSigner;

  const claimItem = (signer: BtAuthSigner, itemId: string, body: unknown = {}) =>
    api.signed<ClaimDto>(signer, 'POST', `/api/v1/work-items/${itemId}/claim`, body);
  const listItems = async (query: string): Promise<WorkItemDto[]> => {
    const reply = await api.anonymous<WorkItemDto[]>('GET', `/api/v1/work-items?${query}`);
    expectStatus(reply, 200);
    return reply.body;
  };
  const itemOf = async (taskId: string, itemId: string): Promise<WorkItemDto> => {
    const item = (await listItems(`task_id=${taskId}`)).find((candidate) => candidate.id === itemId);
    if (!item) throw new MissingWorkItemError(itemId);
    return item;
  };
  const claimedItem = async (signer: BtAuthSigner, itemId: string): Promise<ClaimDto> => {
    const reply = await claimItem(signer, itemId);
    expectStatus(reply, 201);
    return reply.body;
  };
  const sweep = () =>
    h.app.get<JobQueue<CoordinatorJobs>>(JobQueue).runAndWait(QueueName.Maintenance, MaintenanceJob.ExpireClaims, {}, 10_000);

  startCoordinatorForSuite({ CLAIM_RATE_LIMIT_MAX: '0', SUBMISSION_RATE_LIMIT_MAX: '0', CLAIM_SWEEP_INTERVAL_SECONDS: '3600' }, async (started) => {
    h = started;
    api = new TestClient(h);
    [alice, bob] = await Promise.all([signerFor('//Alice'), signerFor('//Bob')]);
  });

  describe('GET /api/v1/work-items', () => {
    it('lists items with every field, newest first, filtered by task and free status, paged', async () => {
      const task = await insertTask(h.db);
      const older = await insertWorkItem(h.db, task.id, 'Older item');
      const newer = await insertWorkItem(h.db, task.id, 'Newer item');
      const items = await listItems(`task_id=${task.id}`);
      expect(items.map((item) => item.id)).toEqual([newer, older]);
      expect(Object.keys(items[0]).sort()).toEqual(WORK_ITEM_FIELDS);
      expect(items[1]).toMatchObject({
        task_id: task.id,
        title: 'Older item',
        description: 'Do the thing.',
        priority: 5,
        status: 'open',
        source: 'admin',
        idea_submission_id: null,
        parent_submission_id: null,
        claim_id: null,
        completed_submission_id: null,
      });
      expect((await listItems(`task_id=${task.id}&limit=1&offset=1`)).map((item) => item.id)).toEqual([older]);
      expect(await listItems(`task_id=${task.id}&status=open`)).toHaveLength(2);
      expect(await listItems(`task_id=${task.id}&status=anything-else`)).toEqual([]);
      expect(await listItems('task_id=not-a-uuid')).toEqual([]);
    });

    it('answers 422 for a status longer than 64 characters or an unknown parameter', async () => {
      expect(itemsOf(await api.anonymous('GET', `/api/v1/work-items?status=${'s'.repeat(65)}`))).toEqual([
        ['string_too_long', 'query.status'],
      ]);
      expect(itemsOf(await api.anonymous('GET', '/api/v1/work-items?sort=priority'))).toEqual([['extra_forbidden', 'query.sort']]);
    });
  });

  describe('POST /api/v1/work-items/{work_item_id}/claim', () => {
    it('claims an open item: a claim on its task with the disclaimer, the item claimed by it', async () => {
      const task = await insertTask(h.db);
      const itemId = await insertWorkItem(h.db, task.id, 'Tune the warmup');
      const reply = await claimItem(alice, itemId);
      expectStatus(reply, 201);
      expect(reply.body).toMatchObject({
        task_id: task.id,
        miner_hotkey: alice.hotkey,
        work_item_id: itemId,
        claim_description: 'Tune the warmup',
        status: 'active',
        participation_disclaimer: PARTICIPATION_DISCLAIMER,
      });
      expect(await itemOf(task.id, itemId)).toMatchObject({ status: 'claimed', claim_id: reply.body.id });
    });

    it('keeps the claim_description the miner sends', async () => {
      const task = await insertTask(h.db);
      const itemId = await insertWorkItem(h.db, task.id);
      const claim = await claimItem(alice, itemId, { claim_description: 'My own plan for this item.' });
      expectStatus(claim, 201);
      expect(claim.body.claim_description).toBe('My own plan for this item.');
    });

    it('answers 409 work_item_not_open once the item is claimed', async () => {
      const task = await insertTask(h.db);
      const itemId = await insertWorkItem(h.db, task.id);
      await claimedItem(alice, itemId);
      const reply = await claimItem(bob, itemId);
      expect(reply.status).toBe(409);
      expect(reply.body).toMatchObject({ detail: { error: 'work_item_not_open', work_item_id: itemId, work_item_status: 'claimed' } });
    });

    it('lets exactly one of two miners racing for one item win', async () => {
      const task = await insertTask(h.db);
      const itemId = await insertWorkItem(h.db, task.id);
      const replies = await Promise.all([claimItem(alice, itemId), claimItem(bob, itemId)]);
      expect(replies.map((reply) => reply.status).sort()).toEqual([201, 409]);
      const winner = replies.find((reply) => reply.status === 201)?.body;
      const loser = replies.find((reply) => reply.status === 409);
      expect(loser && errorOf(loser)).toBe('work_item_not_open');
      expect(await itemOf(task.id, itemId)).toMatchObject({ status: 'claimed', claim_id: winner?.id });
      const claims = (await h.db.dataSource.query(`SELECT id FROM claims WHERE task_id = $1`, [task.id])) as { id: string }[];
      expect(claims.map((claim) => claim.id)).toEqual([winner?.id]);
    });

    it('answers 404 work_item_not_found for unknown and malformed ids', async () => {
      for (const id of [randomUUID(), 'not-a-uuid']) {
        const reply = await claimItem(alice, id);
        expect(reply.status).toBe(404);
        expect(errorOf(reply)).toBe('work_item_not_found');
      }
    });

    it('answers 409 task_not_live for an item of a paused task, and the item stays open', async () => {
      const task = await insertTask(h.db);
      const itemId = await insertWorkItem(h.db, task.id);
      await setTaskState(h.db, task.id, TaskState.Paused);
      const reply = await claimItem(alice, itemId);
      expect(reply.status).toBe(409);
      expect(errorOf(reply)).toBe('task_not_live');
      expect((await itemOf(task.id, itemId)).status).toBe('open');
    });

    it('answers 409 duplicate_active_claim when the miner already holds a claim on the task, and the item stays open', async () => {
      const task = await insertTask(h.db);
      const itemId = await insertWorkItem(h.db, task.id);
      const taskClaim = await api.signed<ClaimDto>(alice, 'POST', `/api/v1/tasks/${task.id}/claim`, { claim_description: 'Working on it directly.' });
      expectStatus(taskClaim, 201);
      const reply = await claimItem(alice, itemId);
      expect(reply.status).toBe(409);
      expect(reply.body).toMatchObject({ detail: { error: 'duplicate_active_claim', claim_id: taskClaim.body.id } });
      expect(await itemOf(task.id, itemId)).toMatchObject({ status: 'open', claim_id: null });
    });

    it('answers 422 for a claim_description over 4000 characters or an unknown property, 401 unsigned', async () => {
      const task = await insertTask(h.db);
      const itemId = await insertWorkItem(h.db, task.id);
      expect(itemsOf(await claimItem(alice, itemId, { claim_description: 'x'.repeat(4001) }))).toEqual([
        ['string_too_long', 'body.claim_description'],
      ]);
      expect(itemsOf(await claimItem(alice, itemId, { title: 'mine' }))).toEqual([['extra_forbidden', 'body.title']]);
      expect((await api.anonymous('POST', `/api/v1/work-items/${itemId}/claim`, {})).status).toBe(401);
      expect((await claimItem(alice, itemId, { claim_description: 'x'.repeat(4000) })).status).toBe(201);
    });
  });

  describe('returning to open', () => {
    it('when the claim is cancelled; the item can then be claimed again', async () => {
      const task = await insertTask(h.db);
      const itemId = await insertWorkItem(h.db, task.id);
      const claim = await claimedItem(alice, itemId);
      expectStatus(await api.signed(alice, 'POST', `/api/v1/claims/${claim.id}/cancel`), 200);
      expect(await itemOf(task.id, itemId)).toMatchObject({ status: 'open', claim_id: null });
      const next = await claimedItem(bob, itemId);
      expect(await itemOf(task.id, itemId)).toMatchObject({ status: 'claimed', claim_id: next.id });
    });

    it('when the sweeper expires the claim', async () => {
      const task = await insertTask(h.db);
      const itemId = await insertWorkItem(h.db, task.id);
      const claim = await claimedItem(alice, itemId);
      await backdateClaim(h.db, claim.id);
      expect(await sweep()).toEqual({ expired: 1, reopened: 1 });
      expect(await claimStatusInDb(h.db, claim.id)).toBe('expired');
      expect(await itemOf(task.id, itemId)).toMatchObject({ status: 'open', claim_id: null });
    });

    it('on use: the list shows an item held by a claim past its TTL as open', async () => {
      const task = await insertTask(h.db);
      const itemId = await insertWorkItem(h.db, task.id);
      const claim = await claimedItem(alice, itemId);
      await backdateClaim(h.db, claim.id);
      expect(await itemOf(task.id, itemId)).toMatchObject({ status: 'open', claim_id: null });
      expect(await claimStatusInDb(h.db, claim.id)).toBe('expired');
    });

    it('on use: another miner can claim an item whose claim is past its TTL', async () => {
      const task = await insertTask(h.db);
      const itemId = await insertWorkItem(h.db, task.id);
      const stale = await claimedItem(alice, itemId);
      await backdateClaim(h.db, stale.id);
      const fresh = await claimedItem(bob, itemId);
      expect(await claimStatusInDb(h.db, stale.id)).toBe('expired');
      expect(await itemOf(task.id, itemId)).toMatchObject({ status: 'claimed', claim_id: fresh.id });
    });
  });

  it('documents the work item routes in /openapi.json', async () => {
    const document = (await (await fetch(`${h.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    expect(JSON.stringify(document.paths['/api/v1/work-items'])).toContain('#/components/schemas/WorkItemDto');
    expect(JSON.stringify(document.paths['/api/v1/work-items/{work_item_id}/claim'])).toContain('#/components/schemas/ClaimDto');
  });

  it('a submission on the claim completes the item', async () => {
    const task = await insertTask(h.db);
    const itemId = await insertWorkItem(h.db, task.id);
    const claim = await claimedItem(alice, itemId);
    const repo = ScratchRepo.create({ 'src/train.py': 'LR = 0.01\n' });
    try {
      const reply = await api.submit<SubmissionDto>(alice, { claim_id: claim.id, patch: repo.diff({ 'src/train.py': 'LR = 0.02\n' }) });
      expectStatus(reply, 201);
      expect(await itemOf(task.id, itemId)).toMatchObject({ status: 'completed', claim_id: claim.id, completed_submission_id: reply.body.id });
    } finally {
      repo.remove();
    }
  });
});

class MissingWorkItemError extends Error {
  constructor(itemId: string) {
    super(`work item ${itemId} is not listed`);
    this.name = 'MissingWorkItemError';
  }
}
