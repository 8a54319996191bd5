import { randomUUID } from 'node:crypto';
import { BtAuthSigner } from '@rcs/auth';
import { ArtifactDescriptorDto, CompetitionMode, SubmissionDetailDto, SubmissionDto, TaskDto } from '@rcs/contracts';
import { ClaimTasks } from '../src/claims/claim-tasks';
import { ClaimsRepository } from '../src/claims/claims.repository';
import { type NewSubmission, SubmissionsRepository } from '../src/submissions/submissions.repository';
import { CoordinatorHarness, startCoordinator, startCoordinatorForSuite } from './harness';
import { errorOf, expectReplyFields, expectStatus, itemsOf, ScratchRepo, signerFor, SUBMISSION_FIELDS, TestClient } from './submissions-fixtures';

const SHA = 'ab'.repeat(32);

describe('POST /api/v1/submissions', () => {
  let h: CoordinatorHarness;
  let api: TestClient;
  let alice: BtAuthSigner;
  let bob: BtAuthSigner;
  let task: TaskDto;
  let repo: ScratchRepo;
  let patch: string;

  const query = <T>(sql: string, params: unknown[] = []): Promise<T[]> => h.db.dataSource.query(sql, params);

  beforeAll(async () => {
    h = await startCoordinator({ SUBMISSION_RATE_LIMIT_MAX: '0', CLAIM_RATE_LIMIT_MAX: '0' });
    api = new TestClient(h);
    [alice, bob] = await Promise.all([signerFor('//Alice'), signerFor('//Bob')]);
    task = await api.createTask();
    repo = ScratchRepo.create({ 'src/train.py': 'LR = 0.01\n', 'README.md': '# task\n' });
    patch = repo.diff({ 'src/train.py': 'LR = 0.02\n' });
  });

  afterAll(async () => {
    repo.remove();
    await h.close();
  });

  describe('on success', () => {
    it('answers 201 with every Submission field, pending_verification', async () => {
      const claim = await api.claim(alice, task.id);
      const reply = await api.submit<SubmissionDto>(alice, {
        claim_id: claim.id,
        base_ref: 'abc123',
        patch,
        summary: 'Doubled the learning rate.',
        proposed_idea: 'Try warmup next.',
        execution_log: 'loss=0.5\n',
        claimed_metrics: { loss: 0.5, steps: 3, lr: 1e-3 },
      });
      expectReplyFields(reply, 201, SUBMISSION_FIELDS);
      expect(reply.body).toMatchObject({
        task_id: task.id,
        claim_id: claim.id,
        miner_hotkey: alice.hotkey,
        base_ref: 'abc123',
        patch,
        summary: 'Doubled the learning rate.',
        proposed_idea: 'Try warmup next.',
        implemented_submission_id: null,
        artifact_uri: null,
        artifact_sha256: null,
        artifact_size_bytes: null,
        execution_log: 'loss=0.5\n',
        claimed_metrics: { loss: 0.5, steps: 3, lr: 1e-3 },
        status: 'pending_verification',
      });
      expect(new Date(reply.body.created_at).toISOString()).toBe(reply.body.created_at);
    });

    it('in one transaction: claim submitted, a pending validator job with 0 attempts', async () => {
      const claim = await api.claim(alice, task.id);
      const submission = (await api.submit<SubmissionDto>(alice, { claim_id: claim.id, patch })).body;
      expect(await query('SELECT status FROM claims WHERE id = $1', [claim.id])).toEqual([{ status: 'submitted' }]);
      expect(await query('SELECT task_id, status, attempts, validator_hotkey, lease_expires_at FROM validator_jobs WHERE submission_id = $1', [submission.id])).toEqual([
        { task_id: task.id, status: 'pending', attempts: 0, validator_hotkey: null, lease_expires_at: null },
      ]);
    });

    it('completes the work item the claim was made through', async () => {
      const [item] = await query<{ id: string }>(
        `INSERT INTO work_items (task_id, title, description, status, source, dedupe_key)
         VALUES ($1, 'Improve the best', 'Beat the current best.', 'open', 'admin', $2) RETURNING id`,
        [task.id, `test:${randomUUID()}`],
      );
      const claimReply = await api.signed<{ id: string }>(alice, 'POST', `/api/v1/work-items/${item.id}/claim`, { claim_description: null });
      expectStatus(claimReply, 201);
      const submission = (await api.submit<SubmissionDto>(alice, { claim_id: claimReply.body.id, patch })).body;
      expect(await query('SELECT status, completed_submission_id FROM work_items WHERE id = $1', [item.id])).toEqual([
        { status: 'completed', completed_submission_id: submission.id },
      ]);
    });

    it('creates no validator job on peer_evaluation tasks', async () => {
      const peerTask = await api.createTask({ competition_mode: 'peer_evaluation' });
      const submission = await api.submitted(alice, peerTask.id, { patch });
      expect(submission.status).toBe('pending_verification');
      expect(await query('SELECT id FROM validator_jobs WHERE submission_id = $1', [submission.id])).toEqual([]);
    });

    it('stores an artifact with its sha256 in lowercase; the patch may then be empty', async () => {
      const submission = await api.submitted(alice, task.id, {
        artifact_uri: 'https://cdn.test/models/a.bin?v=1',
        artifact_sha256: SHA.toUpperCase(),
        artifact_size_bytes: 1234567,
      });
      expect(submission).toMatchObject({ patch: '', artifact_uri: 'https://cdn.test/models/a.bin?v=1', artifact_sha256: SHA, artifact_size_bytes: 1234567 });
    });
  });

  describe('body rules', () => {
    let claimId: string;

    beforeAll(async () => {
      claimId = (await api.claim(bob, task.id)).id;
    });

    afterAll(async () => {
      // Every refusal above left the claim active.
      expect(await query('SELECT status FROM claims WHERE id = $1', [claimId])).toEqual([{ status: 'active' }]);
    });

    it.each<[string, Record<string, unknown>, [string, string][]]>([
      ['no patch and no artifact', {}, [['patch_or_artifact_required', 'body']]],
      ['an empty patch and no artifact', { patch: '' }, [['patch_or_artifact_required', 'body']]],
      ['artifact_uri alone', { artifact_uri: 'https://cdn.test/a.bin' }, [['missing', 'body.artifact_sha256'], ['missing', 'body.artifact_size_bytes']]],
      ['artifact_uri without size', { artifact_uri: 'https://cdn.test/a.bin', artifact_sha256: SHA }, [['missing', 'body.artifact_size_bytes']]],
      ['sha256 without uri', { patch: 'PATCH', artifact_sha256: SHA }, [['missing', 'body.artifact_uri']]],
      ['size without uri', { patch: 'PATCH', artifact_size_bytes: 3 }, [['missing', 'body.artifact_uri']]],
      ['sha256 and size alone', { artifact_sha256: SHA, artifact_size_bytes: 3 }, [['patch_or_artifact_required', 'body'], ['missing', 'body.artifact_uri']]],
      ['an http:// artifact_uri', { artifact_uri: 'http://cdn.test/a.bin', artifact_sha256: SHA, artifact_size_bytes: 3 }, [['url_scheme', 'body.artifact_uri']]],
      ['a relative artifact_uri', { artifact_uri: 'models/a.bin', artifact_sha256: SHA, artifact_size_bytes: 3 }, [['url_parsing', 'body.artifact_uri']]],
      ['an artifact_uri without host', { artifact_uri: 'https:///a.bin', artifact_sha256: SHA, artifact_size_bytes: 3 }, [['url_parsing', 'body.artifact_uri']]],
      ['an artifact_uri with credentials', { artifact_uri: 'https://user:pass@cdn.test/a.bin', artifact_sha256: SHA, artifact_size_bytes: 3 }, [['url_credentials', 'body.artifact_uri']]],
      ...['169.254.169.254', '127.0.0.1', '[::1]', '0x7f000001', 'localhost', '10.1.2.3'].map(
        (host): [string, Record<string, unknown>, [string, string][]] => [
          `an artifact_uri on ${host}`,
          { artifact_uri: `https://${host}/a.bin`, artifact_sha256: SHA, artifact_size_bytes: 3 },
          [['url_host', 'body.artifact_uri']],
        ],
      ),
      ['a short sha256 (DTO bound)', { artifact_uri: 'https://cdn.test/a', artifact_sha256: 'abc', artifact_size_bytes: 3 }, [['string_too_short', 'body.artifact_sha256']]],
      ['a negative size (DTO bound)', { artifact_uri: 'https://cdn.test/a', artifact_sha256: SHA, artifact_size_bytes: -1 }, [['greater_than_equal', 'body.artifact_size_bytes']]],
      ['an unknown property', { patch: 'PATCH', extra: 1 }, [['extra_forbidden', 'body.extra']]],
      ['NUL characters the database cannot store', { patch: 'PATCH', summary: 'a\u0000b', claimed_metrics: { ['lo\u0000ss']: 1 } }, [
        ['string_nul_character', 'body.summary'],
        ['string_nul_character', 'body.claimed_metrics.lo\u0000ss'],
      ]],
      ['a claimed metric that is not a number', { patch: 'PATCH', claimed_metrics: { loss: 0.5, row: 'heldout 0.31,0.77' } }, [
        ['finite_number', 'body.claimed_metrics.row'],
      ]],
      ['a claimed metric name over 120 characters', { patch: 'PATCH', claimed_metrics: { ['x'.repeat(121)]: 1 } }, [
        ['string_too_long', `body.claimed_metrics.${'x'.repeat(121)}.[key]`],
      ]],
    ])('%s → 422', async (_name, fields, expected) => {
      const body: Record<string, unknown> = { claim_id: claimId, ...fields };
      if (body.patch === 'PATCH') body.patch = patch;
      expect(itemsOf(await api.submit(bob, body))).toEqual(expected);
    });

    it('reports a summary that is too long and a missing claim_id together', async () => {
      const reply = await api.signed(bob, 'POST', '/api/v1/submissions', { base_ref: 'main', summary: 'x'.repeat(8001), patch });
      expect(itemsOf(reply).sort()).toEqual([
        ['missing', 'body.claim_id'],
        ['string_too_long', 'body.summary'],
      ]);
    });
  });

  describe('the claim', () => {
    it('404 claim_not_found for an unknown or malformed claim id', async () => {
      for (const claimId of [randomUUID(), 'not-a-claim']) {
        const reply = await api.submit(alice, { claim_id: claimId, patch });
        expect([reply.status, errorOf(reply)]).toEqual([404, 'claim_not_found']);
      }
    });

    it("403 not_claim_owner on someone else's claim, which stays active", async () => {
      const claim = await api.claim(bob, (await api.createTask()).id);
      const reply = await api.submit(alice, { claim_id: claim.id, patch });
      expect([reply.status, errorOf(reply)]).toEqual([403, 'not_claim_owner']);
      expect(await query('SELECT status FROM claims WHERE id = $1', [claim.id])).toEqual([{ status: 'active' }]);
      expectStatus(await api.submit(bob, { claim_id: claim.id, patch }), 201);
    });

    it('409 claim_not_active for a second submission on a claim', async () => {
      const claim = await api.claim(alice, task.id);
      expectStatus(await api.submit(alice, { claim_id: claim.id, patch }), 201);
      const again = await api.submit(alice, { claim_id: claim.id, patch });
      expect([again.status, errorOf(again)]).toEqual([409, 'claim_not_active']);
      expect(await query('SELECT count(*)::int AS n FROM submissions WHERE claim_id = $1', [claim.id])).toEqual([{ n: 1 }]);
    });

    it('409 claim_not_active naming the submission when a retry finds its first attempt committed', async () => {
      const claim = await api.claim(alice, task.id);
      // The first attempt commits; its answer is lost on the way, so the client signs the same body again.
      const first = await api.submit<SubmissionDto>(alice, { claim_id: claim.id, patch, summary: 'retried' });
      expectStatus(first, 201);
      const retry = await api.submit(alice, { claim_id: claim.id, patch, summary: 'retried' });
      expect(retry.status).toBe(409);
      expect(retry.body).toMatchObject({
        detail: { error: 'claim_not_active', claim_id: claim.id, claim_status: 'submitted', submission_id: first.body.id },
      });
      // The id names a submission the client may read: the one it made.
      expectStatus(await api.signed(alice, 'GET', `/api/v1/submissions/${first.body.id}/detail`), 200);
    });

    it('409 claim_not_active on a cancelled claim', async () => {
      const claim = await api.claim(alice, task.id);
      expectStatus(await api.signed(alice, 'POST', `/api/v1/claims/${claim.id}/cancel`), 200);
      const reply = await api.submit(alice, { claim_id: claim.id, patch });
      expect([reply.status, errorOf(reply)]).toEqual([409, 'claim_not_active']);
    });

    it('409 claim_expired past the TTL: the claim is expired and its work item open again', async () => {
      const [item] = await query<{ id: string }>(
        `INSERT INTO work_items (task_id, title, description, status, source, dedupe_key)
         VALUES ($1, 'Try an idea', 'Implement it.', 'open', 'admin', $2) RETURNING id`,
        [task.id, `test:${randomUUID()}`],
      );
      const claimReply = await api.signed<{ id: string }>(alice, 'POST', `/api/v1/work-items/${item.id}/claim`, {});
      expectStatus(claimReply, 201);
      const claimId = claimReply.body.id;
      await query(`UPDATE claims SET expires_at = now() - interval '1 second' WHERE id = $1`, [claimId]);

      const reply = await api.submit(alice, { claim_id: claimId, patch });
      expect([reply.status, errorOf(reply)]).toEqual([409, 'claim_expired']);
      expect(await query('SELECT status FROM claims WHERE id = $1', [claimId])).toEqual([{ status: 'expired' }]);
      expect(await query('SELECT status FROM work_items WHERE id = $1', [item.id])).toEqual([{ status: 'open' }]);
      expect(await query('SELECT id FROM submissions WHERE claim_id = $1', [claimId])).toEqual([]);

      const again = await api.submit(alice, { claim_id: claimId, patch });
      expect([again.status, errorOf(again)]).toEqual([409, 'claim_expired']);
    });

    it('409 task_not_live on a paused task; the claim stays active and works after resume', async () => {
      const pausable = await api.createTask();
      const claim = await api.claim(alice, pausable.id);
      expectStatus(await api.admin('POST', `/api/v1/tasks/${pausable.id}/pause`), 200);
      const reply = await api.submit(alice, { claim_id: claim.id, patch });
      expect([reply.status, errorOf(reply)]).toEqual([409, 'task_not_live']);
      expect(await query('SELECT status FROM claims WHERE id = $1', [claim.id])).toEqual([{ status: 'active' }]);
      expectStatus(await api.admin('POST', `/api/v1/tasks/${pausable.id}/resume`), 200);
      expectStatus(await api.submit(alice, { claim_id: claim.id, patch }), 201);
    });

    it('two concurrent submissions on one claim: exactly one 201, the other 409', async () => {
      const claim = await api.claim(alice, task.id);
      const replies = await Promise.all([1, 2].map((n) => api.submit(alice, { claim_id: claim.id, patch, summary: `attempt ${n}` })));
      expect(replies.map((r) => r.status).sort()).toEqual([201, 409]);
      const conflict = replies.find((r) => r.status === 409);
      expect(conflict && errorOf(conflict)).toBe('claim_not_active');
      const [stored] = await query<{ id: string }>('SELECT id FROM submissions WHERE claim_id = $1', [claim.id]);
      expect(conflict?.body).toMatchObject({ detail: { submission_id: stored.id } });
      expect(await query('SELECT count(*)::int AS n FROM submissions WHERE claim_id = $1', [claim.id])).toEqual([{ n: 1 }]);
      expect(
        await query('SELECT count(*)::int AS n FROM validator_jobs j JOIN submissions s ON s.id = j.submission_id WHERE s.claim_id = $1', [claim.id]),
      ).toEqual([{ n: 1 }]);
    });
  });

  describe('auth', () => {
    it('401 without a signature, and an admin token does not stand in for a miner', async () => {
      const claim = await api.claim(alice, (await api.createTask()).id);
      const unsigned = await api.anonymous('POST', '/api/v1/submissions', { claim_id: claim.id, base_ref: 'main', summary: 's', patch });
      expect([unsigned.status, errorOf(unsigned)]).toEqual([401, 'missing_signature']);
      const admin = await api.admin('POST', '/api/v1/submissions', { claim_id: claim.id, base_ref: 'main', summary: 's', patch });
      expect(admin.status).toBe(401);
      expect(await query('SELECT status FROM claims WHERE id = $1', [claim.id])).toEqual([{ status: 'active' }]);
    });

    it('keeps the submission reads signed (spec 000): an unsigned GET, as BitSota’s fallback sends, gets 401 naming the headers to send', async () => {
      for (const path of ['/api/v1/submissions', '/api/v1/submissions/00000000-0000-4000-8000-000000000000/detail']) {
        const reply = await api.anonymous<{ detail: { error: string; message: string } }>('GET', path);
        expect({ path, status: reply.status, detail: reply.body.detail }).toEqual({
          path,
          status: 401,
          detail: expect.objectContaining({ error: 'missing_signature', message: expect.stringContaining('X-Hotkey, X-Timestamp and X-Signature') }),
        });
      }
    });
  });

  describe('atomicity', () => {
    it('a failure in the last step leaves the claim, work item and submissions untouched', async () => {
      const [item] = await query<{ id: string }>(
        `INSERT INTO work_items (task_id, title, description, status, source, dedupe_key)
         VALUES ($1, 'Atomic', 'All or nothing.', 'open', 'admin', $2) RETURNING id`,
        [(await api.createTask()).id, `test:${randomUUID()}`],
      );
      const claimReply = await api.signed<{ id: string }>(alice, 'POST', `/api/v1/work-items/${item.id}/claim`, {});
      expectStatus(claimReply, 201);
      const claimId = claimReply.body.id;
      // Make the validator job INSERT, the transaction's last statement, fail.
      await query(`ALTER TABLE validator_jobs ADD CONSTRAINT test_refuse_jobs CHECK (false) NOT VALID`);
      try {
        const reply = await api.submit(alice, { claim_id: claimId, patch });
        expect([reply.status, errorOf(reply)]).toEqual([500, 'internal_error']);
      } finally {
        await query(`ALTER TABLE validator_jobs DROP CONSTRAINT test_refuse_jobs`);
      }
      expect(await query('SELECT status FROM claims WHERE id = $1', [claimId])).toEqual([{ status: 'active' }]);
      expect(await query('SELECT status, completed_submission_id FROM work_items WHERE id = $1', [item.id])).toEqual([
        { status: 'claimed', completed_submission_id: null },
      ]);
      expect(await query('SELECT id FROM submissions WHERE claim_id = $1', [claimId])).toEqual([]);

      expectStatus(await api.submit(alice, { claim_id: claimId, patch }), 201);
    });
  });

  describe('the one-statement path (read the claim, check the rules, then write only if nothing changed)', () => {
    const stored = async (claimId: string) => ({
      claim: (await query<{ status: string }>('SELECT status FROM claims WHERE id = $1', [claimId]))[0]?.status,
      submissions: (await query<{ id: string }>('SELECT id FROM submissions WHERE claim_id = $1', [claimId])).map((row) => row.id),
    });

    it('writes nothing when the task was changed, paused, or the claim is not the signer\'s active one, and stores once when all holds', async () => {
      const manager = h.db.dataSource.manager;
      const submissions = h.app.get(SubmissionsRepository);
      const own = await api.createTask();
      const claim = await api.claim(alice, own.id);
      const read = await h.app.get(ClaimsRepository).peekActive(manager, claim.id, alice.hotkey);
      if (read === null) throw new TypeError('the active claim was not read');
      expect(await h.app.get(ClaimsRepository).peekActive(manager, claim.id, bob.hotkey)).toBeNull();
      const submission: NewSubmission = {
        taskId: own.id,
        claimId: claim.id,
        minerHotkey: alice.hotkey,
        baseRef: 'main',
        patch,
        summary: 'A change.',
        proposedIdea: null,
        implementedSubmissionId: null,
        artifactUri: null,
        artifactSha256: null,
        artifactSizeBytes: null,
        executionLog: null,
        claimedMetrics: {},
      };
      const store = (task: typeof read, hotkey = alice.hotkey) =>
        submissions.storePendingIfUnchanged(manager, { ...submission, minerHotkey: hotkey }, { validatorJob: true, task });

      // The rules were read before an operator changed them, or the mode differs: nothing is written.
      await expect(store({ ...read, maxPatchBytes: read.maxPatchBytes + 1 })).resolves.toBeNull();
      await expect(store({ ...read, allowedPatchPaths: ['other/**'] })).resolves.toBeNull();
      await expect(store({ ...read, competitionMode: CompetitionMode.PeerEvaluation })).resolves.toBeNull();
      await expect(store(read, bob.hotkey)).resolves.toBeNull();
      await query(`UPDATE tasks SET task_state = 'paused' WHERE id = $1`, [own.id]);
      await expect(store(read)).resolves.toBeNull();
      expect(await stored(claim.id)).toEqual({ claim: 'active', submissions: [] });

      await query(`UPDATE tasks SET task_state = 'live' WHERE id = $1`, [own.id]);
      const first = await store(read);
      expect(first).toMatchObject({ claimId: claim.id, taskId: own.id, status: 'pending_verification' });
      // The claim is taken: a second write finds nothing to do.
      await expect(store(read)).resolves.toBeNull();
      expect(await stored(claim.id)).toEqual({ claim: 'submitted', submissions: [first?.id] });
      expect(await query('SELECT status FROM validator_jobs WHERE submission_id = $1', [first?.id])).toEqual([{ status: 'pending' }]);
    });

    it('skips the read for a claim this coordinator opened, and forgets the claim once it is submitted on', async () => {
      const peek = jest.spyOn(ClaimsRepository.prototype, 'peekActive');
      try {
        const claim = await api.claim(alice, (await api.createTask()).id);
        expect(h.app.get(ClaimTasks).taskOf(claim.id)).toMatchObject({ id: claim.task_id, taskState: 'live' });
        expectStatus(await api.submit(alice, { claim_id: claim.id, patch }), 201);
        expect(peek).not.toHaveBeenCalled();
        expect(h.app.get(ClaimTasks).taskOf(claim.id)).toBeUndefined();

        // A claim opened elsewhere (another replica) is read first, and stored the same way.
        const elsewhere = await api.claim(alice, (await api.createTask()).id);
        h.app.get(ClaimTasks).forget(elsewhere.id);
        expectStatus(await api.submit(alice, { claim_id: elsewhere.id, patch }), 201);
        expect(peek).toHaveBeenCalledTimes(1);
      } finally {
        peek.mockRestore();
      }
    });

    it('decides on the task as it is now when an operator changed it after the claim was remembered', async () => {
      const own = await api.createTask();
      const claim = await api.claim(alice, own.id);
      // Stricter than the remembered rules: refused on the rules read afresh, and the claim stays active.
      await query('UPDATE tasks SET max_patch_bytes = $2 WHERE id = $1', [own.id, Buffer.byteLength(patch) - 1]);
      expectStatus(await api.submit(alice, { claim_id: claim.id, patch }), 422);
      expect(await stored(claim.id)).toEqual({ claim: 'active', submissions: [] });
      await query(`UPDATE tasks SET task_state = 'paused' WHERE id = $1`, [own.id]);
      expect(errorOf(await api.submit(alice, { claim_id: claim.id, patch }))).toBe('task_not_live');
      // Relaxed and live again: stored, on the rules as they now are.
      await query(`UPDATE tasks SET task_state = 'live', max_patch_bytes = $2 WHERE id = $1`, [own.id, 1 << 20]);
      expectStatus(await api.submit(alice, { claim_id: claim.id, patch }), 201);
      expect(await stored(claim.id)).toMatchObject({ claim: 'submitted', submissions: [expect.any(String)] });
    });

    it('answers two concurrent submissions on one claim with one 201 and one 409 claim_not_active', async () => {
      const claim = await api.claim(alice, (await api.createTask()).id);
      const replies = await Promise.all([api.submit(alice, { claim_id: claim.id, patch }), api.submit(alice, { claim_id: claim.id, patch })]);
      expect(replies.map((reply) => reply.status).sort()).toEqual([201, 409]);
      expect(errorOf(replies.find((reply) => reply.status === 409) ?? replies[0])).toBe('claim_not_active');
      expect((await stored(claim.id)).submissions).toHaveLength(1);
    });
  });
});

describe('submission reads', () => {
  let h: CoordinatorHarness;
  let api: TestClient;
  let alice: BtAuthSigner;
  let bob: BtAuthSigner;
  let taskA: TaskDto;
  let taskB: TaskDto;
  /** Oldest first. */
  let onA: SubmissionDto[];
  let onB: SubmissionDto;
  let artifactSubmission: SubmissionDto;
  let patch: string;

  startCoordinatorForSuite({ SUBMISSION_RATE_LIMIT_MAX: '0', CLAIM_RATE_LIMIT_MAX: '0' }, async (started) => {
    h = started;
    api = new TestClient(h);
    [alice, bob] = await Promise.all([signerFor('//Alice'), signerFor('//Bob')]);
    [taskA, taskB] = [await api.createTask(), await api.createTask()];
    const repo = ScratchRepo.create({ 'src/a.py': 'A = 1\n' });
    patch = repo.diff({ 'src/a.py': 'A = 2\n' });
    repo.remove();
    onA = [];
    onA.push(await api.submitted(alice, taskA.id, { patch, execution_log: 'step 1: loss 0.9\nstep 2: loss 0.5\n' }));
    onA.push(await api.submitted(bob, taskA.id, { patch }));
    artifactSubmission = await api.submitted(alice, taskA.id, { artifact_uri: 'https://cdn.test/m.bin', artifact_sha256: SHA, artifact_size_bytes: 42 });
    onA.push(artifactSubmission);
    onB = await api.submitted(bob, taskB.id, { patch });
    await h.db.dataSource.query(`UPDATE submissions SET status = 'accepted' WHERE id = $1`, [onA[1].id]);
  });

  const ids = (reply: { body: unknown }): string[] => (reply.body as SubmissionDto[]).map((s) => s.id);

  describe('GET /api/v1/submissions', () => {
    it('lists newest first, for any valid signature', async () => {
      const reply = await api.signed<SubmissionDto[]>(bob, 'GET', '/api/v1/submissions');
      expectStatus(reply, 200);
      expect(ids(reply)).toEqual([onB.id, ...[...onA].reverse().map((s) => s.id)]);
      expect(Object.keys(reply.body[0]).sort()).toEqual(SUBMISSION_FIELDS);
    });

    it('filters by task and status', async () => {
      expect(ids(await api.signed(alice, 'GET', `/api/v1/submissions?task_id=${taskA.id}`))).toEqual([...onA].reverse().map((s) => s.id));
      expect(ids(await api.signed(alice, 'GET', `/api/v1/submissions?task_id=${taskB.id}`))).toEqual([onB.id]);
      expect(ids(await api.signed(alice, 'GET', `/api/v1/submissions?task_id=${taskA.id}&status=accepted`))).toEqual([onA[1].id]);
      expect(ids(await api.signed(alice, 'GET', '/api/v1/submissions?status=pending_verification'))).toEqual([onB.id, onA[2].id, onA[0].id]);
      expect(ids(await api.signed(alice, 'GET', `/api/v1/submissions?task_id=${randomUUID()}`))).toEqual([]);
      expect(ids(await api.signed(alice, 'GET', '/api/v1/submissions?task_id=not-a-task'))).toEqual([]);
    });

    it('pages with limit and offset', async () => {
      const all = ids(await api.signed(alice, 'GET', '/api/v1/submissions'));
      const first = ids(await api.signed(alice, 'GET', '/api/v1/submissions?limit=2'));
      const second = ids(await api.signed(alice, 'GET', '/api/v1/submissions?limit=2&offset=2'));
      const beyond = ids(await api.signed(alice, 'GET', '/api/v1/submissions?offset=10'));
      expect([...first, ...second]).toEqual(all);
      expect(first).toHaveLength(2);
      expect(beyond).toEqual([]);
    });

    it.each([
      ['limit=0', 'greater_than_equal', 'query.limit'],
      ['limit=1001', 'less_than_equal', 'query.limit'],
      ['limit=ten', 'int_type', 'query.limit'],
      ['offset=-1', 'greater_than_equal', 'query.offset'],
      ['status=bogus', 'enum', 'query.status'],
    ])('422 for %s', async (qs, type, loc) => {
      expect(itemsOf(await api.signed(alice, 'GET', `/api/v1/submissions?${qs}`))).toEqual([[type, loc]]);
    });

    it('401 unsigned; an admin token reads too', async () => {
      expect((await api.anonymous('GET', '/api/v1/submissions')).status).toBe(401);
      expect(ids(await api.admin('GET', '/api/v1/submissions?limit=1'))).toEqual([onB.id]);
    });
  });

  describe('GET /api/v1/submissions/{id}', () => {
    it('answers the submission to any signer; 404 for unknown ids', async () => {
      const reply = await api.signed<SubmissionDto>(bob, 'GET', `/api/v1/submissions/${onA[0].id}`);
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual(onA[0]);
      for (const id of [randomUUID(), 'nope']) {
        const missing = await api.signed(bob, 'GET', `/api/v1/submissions/${id}`);
        expect([missing.status, errorOf(missing)]).toEqual([404, 'submission_not_found']);
      }
    });
  });

  describe('GET /api/v1/submissions/{id}/detail', () => {
    it('answers the owner with the detail shape', async () => {
      const reply = await api.signed<SubmissionDetailDto>(alice, 'GET', `/api/v1/submissions/${onA[0].id}/detail`);
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({
        submission: onA[0],
        verifications: [],
        peer_evaluations: [],
        peer_consensus: null,
        idea_rewards: [],
        metric_name: 'loss',
      });
    });

    it('403 not_submission_owner for another hotkey; an admin reads it', async () => {
      const other = await api.signed(bob, 'GET', `/api/v1/submissions/${onA[0].id}/detail`);
      expect([other.status, errorOf(other)]).toEqual([403, 'not_submission_owner']);
      const admin = await api.admin<SubmissionDetailDto>('GET', `/api/v1/submissions/${onA[0].id}/detail`);
      expect(admin.status).toBe(200);
      expect(admin.body.submission.id).toBe(onA[0].id);
    });

    it('404 for an unknown submission', async () => {
      const reply = await api.signed(alice, 'GET', `/api/v1/submissions/${randomUUID()}/detail`);
      expect([reply.status, errorOf(reply)]).toEqual([404, 'submission_not_found']);
    });
  });

  describe('GET /api/v1/submissions/{id}/execution.log', () => {
    it('serves the stored log as text/plain', async () => {
      const reply = await api.signed(bob, 'GET', `/api/v1/submissions/${onA[0].id}/execution.log`);
      expect(reply.status).toBe(200);
      expect(reply.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(reply.text).toBe('step 1: loss 0.9\nstep 2: loss 0.5\n');
    });

    it('serves an empty body when no log was submitted; 404 for unknown ids', async () => {
      const reply = await api.signed(bob, 'GET', `/api/v1/submissions/${onA[1].id}/execution.log`);
      expect(reply.status).toBe(200);
      expect(reply.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(reply.text).toBe('');
      const missing = await api.signed(bob, 'GET', `/api/v1/submissions/${randomUUID()}/execution.log`);
      expect([missing.status, errorOf(missing)]).toEqual([404, 'submission_not_found']);
    });
  });

  describe('GET /api/v1/submissions/{id}/artifact', () => {
    it('answers the artifact descriptor', async () => {
      const reply = await api.signed<ArtifactDescriptorDto>(bob, 'GET', `/api/v1/submissions/${artifactSubmission.id}/artifact`);
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ submission_id: artifactSubmission.id, artifact_uri: 'https://cdn.test/m.bin', artifact_sha256: SHA, artifact_size_bytes: 42 });
    });

    it('404 artifact_not_found for a patch-only submission', async () => {
      const reply = await api.signed(bob, 'GET', `/api/v1/submissions/${onA[0].id}/artifact`);
      expect([reply.status, errorOf(reply)]).toEqual([404, 'artifact_not_found']);
    });
  });

  it('documents the submission routes with their schemas in /openapi.json', async () => {
    const document = (await (await fetch(`${h.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>;
    };
    const create = document.paths['/api/v1/submissions'].post;
    expect(create.responses['201'].content?.['application/json'].schema).toEqual({ $ref: '#/components/schemas/SubmissionDto' });
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['201', '401', '403', '404', '409', '422', '429']));
    expect(document.paths['/api/v1/submissions/{submission_id}/detail'].get.responses['200'].content?.['application/json'].schema).toEqual({
      $ref: '#/components/schemas/SubmissionDetailDto',
    });
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/submissions/{submission_id}',
        '/api/v1/submissions/{submission_id}/execution.log',
        '/api/v1/submissions/{submission_id}/artifact',
      ]),
    );
  });
});

describe('submission rate limit and insecure artifact URIs', () => {
  let h: CoordinatorHarness;
  let api: TestClient;

  startCoordinatorForSuite({ SUBMISSION_RATE_LIMIT_MAX: '2', SUBMISSION_RATE_LIMIT_WINDOW_SECONDS: '600', ALLOW_INSECURE_ARTIFACT_URIS: 'true' }, (started) => {
    h = started;
    api = new TestClient(h);
  });

  it('accepts http:// artifact URIs when ALLOW_INSECURE_ARTIFACT_URIS is set', async () => {
    const charlie = await signerFor('//Charlie');
    const task = await api.createTask();
    const submission = await api.submitted(charlie, task.id, { artifact_uri: 'http://127.0.0.1:9000/a.bin', artifact_sha256: SHA, artifact_size_bytes: 1 });
    expect(submission.artifact_uri).toBe('http://127.0.0.1:9000/a.bin');
  });

  it('429 rate_limited with Retry-After once a hotkey used its submissions, per hotkey', async () => {
    const dave = await signerFor('//Dave');
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await api.submit(dave, { claim_id: randomUUID(), patch: 'x' })).status);
    expect(statuses).toEqual([404, 404, 429]);
    const limited = await api.submit(dave, { claim_id: randomUUID(), patch: 'x' });
    expect(errorOf(limited)).toBe('rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const eve = await signerFor('//Eve');
    expect((await api.submit(eve, { claim_id: randomUUID(), patch: 'x' })).status).toBe(404);
  });
});
