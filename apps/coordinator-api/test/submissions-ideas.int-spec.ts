import { randomUUID } from 'node:crypto';
import { BtAuthSigner } from '@rcs/auth';
import { SubmissionDto, TaskDto, TaskIdeaDto } from '@rcs/contracts';
import { CoordinatorHarness, startCoordinatorForSuite } from './harness';
import { Body, expectStatus, ScratchRepo, signerFor, TestClient } from './submissions-fixtures';

/** Centerless idea rules (DECISIONS.md §5) and implemented_submission_id on the other modes. */
describe('POST /api/v1/submissions: idea rules', () => {
  let h: CoordinatorHarness;
  let api: TestClient;
  let miners: Record<'alice' | 'bob' | 'charlie' | 'dave' | 'eve' | 'ferdie', BtAuthSigner>;
  let patch: string;
  let task: TaskDto;
  /** Alice's first idea on the task. */
  let a1: SubmissionDto;
  /** Bob implements a1 and proposes his own idea. */
  let b1: SubmissionDto;
  /** Alice's second idea (no reference needed: the only ideas so far were her own). */
  let a2: SubmissionDto;
  /** Alice's idea on another centerless task. */
  let elsewhere: SubmissionDto;
  /** Dave implements a1; his submission is then rejected. */
  let rejected: SubmissionDto;
  /** Eve implements a1; her submission then carries no idea. */
  let idealess: SubmissionDto;

  const query = <T>(sql: string, params: unknown[] = []): Promise<T[]> => h.db.dataSource.query(sql, params);
  /** One claim per miner on `task`, reused while refusals leave it active. */
  const claims = new Map<BtAuthSigner, string>();

  async function submitOnTask(miner: BtAuthSigner, fields: Body) {
    let claimId = claims.get(miner);
    if (claimId === undefined) {
      claimId = (await api.claim(miner, task.id)).id;
      claims.set(miner, claimId);
    }
    const reply = await api.submit<SubmissionDto>(miner, { claim_id: claimId, patch, ...fields });
    if (reply.status === 201) claims.delete(miner);
    return reply;
  }

  startCoordinatorForSuite({ SUBMISSION_RATE_LIMIT_MAX: '0', CLAIM_RATE_LIMIT_MAX: '0' }, async (started) => {
    h = started;
    api = new TestClient(h);
    const [alice, bob, charlie, dave, eve, ferdie] = await Promise.all(
      ['//Alice', '//Bob', '//Charlie', '//Dave', '//Eve', '//Ferdie'].map(signerFor),
    );
    miners = { alice, bob, charlie, dave, eve, ferdie };
    const repo = ScratchRepo.create({ 'src/train.py': 'LR = 0.01\n' });
    patch = repo.diff({ 'src/train.py': 'LR = 0.03\n' });
    repo.remove();

    task = await api.createTask({ competition_mode: 'centerless' });
    const other = await api.createTask({ competition_mode: 'centerless' });
    a1 = await api.submitted(alice, task.id, { patch, proposed_idea: 'Cosine learning-rate schedule.' });
    // Alice's second submission needs no reference: the only ideas so far are her own.
    a2 = await api.submitted(alice, task.id, { patch, proposed_idea: 'Label smoothing.' });
    b1 = await api.submitted(bob, task.id, { patch, proposed_idea: 'Longer warmup.', implemented_submission_id: a1.id });
    elsewhere = await api.submitted(alice, other.id, { patch, proposed_idea: 'Elsewhere.' });
    rejected = await api.submitted(dave, task.id, { patch, proposed_idea: 'Rejected idea.', implemented_submission_id: a1.id });
    idealess = await api.submitted(eve, task.id, { patch, proposed_idea: 'Soon gone.', implemented_submission_id: a1.id });
    await query(`UPDATE submissions SET status = 'rejected' WHERE id = $1`, [rejected.id]);
    await query(`UPDATE submissions SET proposed_idea = NULL WHERE id = $1`, [idealess.id]);
  });

  it('stored the chain of ideas', () => {
    expect(b1).toMatchObject({ implemented_submission_id: a1.id, proposed_idea: 'Longer warmup.' });
  });

  it("GET /api/v1/tasks/{task_id}/ideas lists the task's ideas to anyone, newest first: not rejected, not blank, not another task's", async () => {
    const reply = await api.anonymous<TaskIdeaDto[]>('GET', `/api/v1/tasks/${task.id}/ideas`);
    expectStatus(reply, 200);
    expect(reply.body.map((idea) => [idea.submission_id, idea.miner_hotkey, idea.proposed_idea])).toEqual([
      [b1.id, miners.bob.hotkey, 'Longer warmup.'],
      [a2.id, miners.alice.hotkey, 'Label smoothing.'],
      [a1.id, miners.alice.hotkey, 'Cosine learning-rate schedule.'],
    ]);
    expect(Object.keys(reply.body[0]).sort()).toEqual(['created_at', 'miner_hotkey', 'proposed_idea', 'status', 'submission_id', 'task_id']);
    expect(reply.body[0]).toMatchObject({ task_id: task.id, status: 'pending_verification' });
    const paged = await api.anonymous<TaskIdeaDto[]>('GET', `/api/v1/tasks/${task.id}/ideas?limit=1&offset=1`);
    expect(paged.body.map((idea) => idea.submission_id)).toEqual([a2.id]);
  });

  it('GET /api/v1/tasks/{task_id}/ideas: 404 task_not_found for unknown and malformed ids, 422 for bad paging', async () => {
    for (const id of [randomUUID(), 'not-a-uuid']) {
      const reply = await api.anonymous<{ detail: { error: string } }>('GET', `/api/v1/tasks/${id}/ideas`);
      expectStatus(reply, 404);
      expect(reply.body.detail.error).toBe('task_not_found');
    }
    expectStatus(await api.anonymous('GET', `/api/v1/tasks/${task.id}/ideas?limit=0`), 422);
    expectStatus(await api.anonymous('GET', `/api/v1/tasks/${task.id}/ideas?miner=x`), 422);
  });

  type Miner = keyof typeof miners;
  const refusals: [string, Miner, () => Body, [string, string, string | undefined][]][] = [
    ['no proposed_idea', 'charlie', () => ({ implemented_submission_id: b1.id }), [['proposed_idea_required', 'proposed_idea', undefined]]],
    ['a blank proposed_idea', 'charlie', () => ({ proposed_idea: '   ', implemented_submission_id: b1.id }), [['proposed_idea_required', 'proposed_idea', undefined]]],
    ['no reference once others proposed ideas', 'charlie', () => ({ proposed_idea: 'Mine.' }), [['implemented_submission_required', 'implemented_submission_id', undefined]]],
    [
      'neither idea nor reference',
      'charlie',
      () => ({}),
      [
        ['proposed_idea_required', 'proposed_idea', undefined],
        ['implemented_submission_required', 'implemented_submission_id', undefined],
      ],
    ],
    ['an unknown reference', 'charlie', () => ({ proposed_idea: 'Mine.', implemented_submission_id: randomUUID() }), [['implemented_submission_invalid', 'implemented_submission_id', 'not_found']]],
    ['a malformed reference', 'charlie', () => ({ proposed_idea: 'Mine.', implemented_submission_id: 'b1' }), [['implemented_submission_invalid', 'implemented_submission_id', 'not_found']]],
    ['a reference on another task', 'charlie', () => ({ proposed_idea: 'Mine.', implemented_submission_id: elsewhere.id }), [['implemented_submission_invalid', 'implemented_submission_id', 'other_task']]],
    ['a rejected reference', 'charlie', () => ({ proposed_idea: 'Mine.', implemented_submission_id: rejected.id }), [['implemented_submission_invalid', 'implemented_submission_id', 'rejected']]],
    ['a reference without an idea', 'charlie', () => ({ proposed_idea: 'Mine.', implemented_submission_id: idealess.id }), [['implemented_submission_invalid', 'implemented_submission_id', 'no_idea']]],
    ['a reference to your own submission', 'alice', () => ({ proposed_idea: 'Mine.', implemented_submission_id: a1.id }), [['implemented_submission_invalid', 'implemented_submission_id', 'own_submission']]],
    ["no reference once another miner's idea exists", 'alice', () => ({ proposed_idea: 'Mine.' }), [['implemented_submission_required', 'implemented_submission_id', undefined]]],
  ];

  it.each(refusals)('422 for %s', async (_name, miner, fields, expected) => {
    const reply = await submitOnTask(miners[miner], fields());
    expectStatus(reply, 422);
    const items = (reply.body as unknown as { detail: { type: string; loc: string[]; ctx?: { reason?: string } }[] }).detail;
    expect(items.map((item) => [item.type, item.loc[1], item.ctx?.reason])).toEqual(expected);
    expect(items.every((item) => item.loc[0] === 'body')).toBe(true);
  });

  it('the 422 for a missing reference names the ideas that can be implemented: other miners\' submissions with an idea, not rejected, of this task', async () => {
    const reply = await submitOnTask(miners.charlie, { proposed_idea: 'Mine.' });
    expectStatus(reply, 422);
    const [item] = (reply.body as unknown as { detail: { type: string; msg: string; ctx?: { implementable_submission_ids?: string[] } }[] }).detail;
    const ids = item.ctx?.implementable_submission_ids ?? [];
    // Newest first: Bob's, Alice's second, Alice's first (Dave's is rejected, Eve's has no idea, the other task's is elsewhere).
    expect(ids).toHaveLength(3);
    expect([ids[0], ids[2]]).toEqual([b1.id, a1.id]);
    expect(ids).not.toEqual(expect.arrayContaining([rejected.id]));
    expect(item.msg).toContain(`Ideas that can be implemented (submission ids, newest first): ${ids.join(', ')}.`);
  });

  it.each<[string, Miner, () => SubmissionDto]>([
    ["Charlie implements Bob's idea", 'charlie', () => b1],
    ["Alice implements Bob's idea", 'alice', () => b1],
    ["Ferdie implements Alice's first idea", 'ferdie', () => a1],
  ])('201: %s, on the claim the refusals left active', async (_name, miner, idea) => {
    const reply = await submitOnTask(miners[miner], { proposed_idea: 'Next idea.', implemented_submission_id: idea().id });
    expectStatus(reply, 201);
    expect(reply.body.implemented_submission_id).toBe(idea().id);
  });

  it('a rejected idea of another miner requires no reference', async () => {
    const fresh = await api.createTask({ competition_mode: 'centerless' });
    const bobs = await api.submitted(miners.bob, fresh.id, { patch, proposed_idea: 'Will fail.' });
    await query(`UPDATE submissions SET status = 'rejected' WHERE id = $1`, [bobs.id]);
    const alices = await api.submitted(miners.alice, fresh.id, { patch, proposed_idea: 'Fresh start.' });
    expect(alices.implemented_submission_id).toBeNull();
  });

  it('two first ideas at once: the database sees them in turn, so the second needs a reference', async () => {
    const fresh = await api.createTask({ competition_mode: 'centerless' });
    const [bobClaim, charlieClaim] = await Promise.all([api.claim(miners.bob, fresh.id), api.claim(miners.charlie, fresh.id)]);
    const replies = await Promise.all([
      api.submit(miners.bob, { claim_id: bobClaim.id, patch, proposed_idea: 'Bob first.' }),
      api.submit(miners.charlie, { claim_id: charlieClaim.id, patch, proposed_idea: 'Charlie first.' }),
    ]);
    expect(replies.map((reply) => reply.status).sort()).toEqual([201, 422]);
    const refusal = replies.find((reply) => reply.status === 422);
    expect((refusal?.body as { detail: { type: string }[] } | undefined)?.detail.map((item) => item.type)).toEqual(['implemented_submission_required']);
  });

  describe('implemented_submission_id outside centerless tasks', () => {
    it.each(['standard', 'peer_evaluation'])('%s: optional, any submission of the same task, never of another', async (mode) => {
      const modeTask = await api.createTask({ competition_mode: mode });
      const own = await api.submitted(miners.alice, modeTask.id, { patch });
      expect(own.proposed_idea).toBeNull();
      const claim = await api.claim(miners.alice, modeTask.id);
      const wrong = await api.submit(miners.alice, { claim_id: claim.id, patch, implemented_submission_id: a1.id });
      expectStatus(wrong, 422);
      expect((wrong.body as unknown as { detail: { type: string; ctx: { reason: string } }[] }).detail).toMatchObject([
        { type: 'implemented_submission_invalid', ctx: { reason: 'other_task' } },
      ]);
      const right = await api.submit<SubmissionDto>(miners.alice, { claim_id: claim.id, patch, implemented_submission_id: own.id });
      expectStatus(right, 201);
      expect(right.body.implemented_submission_id).toBe(own.id);
    });
  });
});
