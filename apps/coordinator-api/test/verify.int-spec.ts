import { randomUUID } from 'node:crypto';
import { TaskDto, VerificationSummaryDto } from '@rcs/contracts';
import { errorOf, expectReplyFields, expectStatus, itemsOf } from './submissions-fixtures';
import { Cast, startValidationForSuite, ValidationClient, VERIFICATION_FIELDS } from './validator-jobs-fixtures';

describe('manual verify, verifications and replay logs', () => {
  let api: ValidationClient;
  let people: Cast;
  let task: TaskDto;

  startValidationForSuite(async (setup) => {
    ({ people, api } = setup);
    task = await api.createTask();
  });

  describe('POST /submissions/{id}/verify', () => {
    it('decides a pending submission by the observed metric and completes its pending job', async () => {
      const submission = await api.pending(people.dave, task.id, { claimed_metrics: { loss: 0.1 } });
      const reply = await api.verify(people.alice, submission.id, { status: 'accepted', observed_metrics: { loss: 0.4 }, notes: 'manual', replay_log: 'ran it' });
      expectReplyFields(reply, 200, VERIFICATION_FIELDS);
      expect(reply.body).toMatchObject({ submission_id: submission.id, validator_hotkey: people.alice.hotkey, status: 'accepted', metric_value: 0.4 });
      expect(await api.query('SELECT id, status, validator_hotkey FROM validator_jobs WHERE submission_id = $1', [submission.id])).toEqual([
        { id: reply.body.job_id, status: 'completed', validator_hotkey: people.alice.hotkey },
      ]);
      expect(await api.query('SELECT status, verified_metric_value FROM submissions WHERE id = $1', [submission.id])).toEqual([
        { status: 'accepted', verified_metric_value: 0.4 },
      ]);
      const best = await api.anonymous('GET', `/api/v1/tasks/${task.id}/best`);
      expect(best.body).toMatchObject({ submission_id: submission.id, metric_value: 0.4 });
    });

    it("completes a job leased to another validator, recording who verified; the lessee's result then finds it completed", async () => {
      const submission = await api.pending(people.eve, task.id);
      const job = await api.leaseOf(people.bob, submission);
      const reply = await api.verify(people.alice, submission.id, { status: 'rejected', notes: 'does not build' });
      expectStatus(reply, 200);
      expect(reply.body.job_id).toBe(job.job_id);
      expect(await api.query('SELECT status, validator_hotkey FROM validator_jobs WHERE id = $1', [job.job_id])).toEqual([
        { status: 'completed', validator_hotkey: people.alice.hotkey },
      ]);
      const late = await api.result(people.bob, job.job_id, { status: 'rejected', notes: 'does not build' });
      expectStatus(late, 409);
      expect(errorOf(late)).toBe('job_already_completed');
    });

    it('answers 409 submission_already_decided for a decided submission', async () => {
      const submission = await api.pending(people.ferdie, task.id);
      expectStatus(await api.verify(people.alice, submission.id, { status: 'error' }), 200);
      const again = await api.verify(people.bob, submission.id, { status: 'error' });
      expectStatus(again, 409);
      expect(errorOf(again)).toBe('submission_already_decided');
      expect(await api.query('SELECT count(*)::int AS n FROM verifications WHERE submission_id = $1', [submission.id])).toEqual([{ n: 1 }]);
    });

    it('refuses peer_evaluation tasks with 409 verify_not_allowed_for_peer_evaluation', async () => {
      const peer = await api.createTask({ competition_mode: 'peer_evaluation' });
      const submission = await api.pending(people.dave, peer.id);
      const reply = await api.verify(people.alice, submission.id, { status: 'accepted', observed_metrics: { loss: 0.2 } });
      expectStatus(reply, 409);
      expect(errorOf(reply)).toBe('verify_not_allowed_for_peer_evaluation');
      expect(await api.query('SELECT status FROM submissions WHERE id = $1', [submission.id])).toEqual([{ status: 'pending_verification' }]);
    });

    it('needs a finite task metric for accepted (422), an allowlisted validator (403) and a known submission (404)', async () => {
      const submission = await api.pending(people.eve, task.id);
      expect(itemsOf(await api.verify(people.alice, submission.id, { status: 'accepted', observed_metrics: { accuracy: 1 } }))).toEqual([
        ['missing', 'body.observed_metrics.loss'],
      ]);
      expect(itemsOf(await api.verify(people.alice, submission.id, { status: 'accepted', submission_id: submission.id }))).toEqual([
        ['extra_forbidden', 'body.submission_id'],
      ]);
      const stranger = await api.verify(people.charlie, submission.id, { status: 'rejected' });
      expectStatus(stranger, 403);
      expect(errorOf(stranger)).toBe('validator_not_allowlisted');
      for (const id of [randomUUID(), 'nope']) {
        const reply = await api.verify(people.alice, id, { status: 'rejected' });
        expectStatus(reply, 404);
        expect(errorOf(reply)).toBe('submission_not_found');
      }
      expect(await api.query('SELECT status FROM submissions WHERE id = $1', [submission.id])).toEqual([{ status: 'pending_verification' }]);
    });
  });

  describe('GET /verifications', () => {
    let listTask: TaskDto;
    const ids: string[] = [];

    beforeAll(async () => {
      listTask = await api.createTask();
      for (const status of ['accepted', 'rejected', 'error']) {
        const submission = await api.pending(people.dave, listTask.id);
        const reply = await api.verify(people.bob, submission.id, { status, observed_metrics: { loss: 0.3 }, replay_log: 'secret log' });
        expectStatus(reply, 200);
        ids.push(reply.body.id);
      }
    });

    it('lists summaries newest first, without replay logs, to anyone', async () => {
      const reply = await api.anonymous<VerificationSummaryDto[]>('GET', '/api/v1/verifications');
      expectStatus(reply, 200);
      const mine = reply.body.filter((verification) => verification.task_id === listTask.id);
      expect(mine.map((verification) => verification.id)).toEqual([...ids].reverse());
      for (const verification of reply.body) expect(Object.keys(verification).sort()).toEqual(VERIFICATION_FIELDS);
      expect(reply.text).not.toContain('secret log');
    });

    it('filters by submission and status, and pages', async () => {
      const [accepted] = await api.query<{ submission_id: string }>('SELECT submission_id FROM verifications WHERE id = $1', [ids[0]]);
      const bySubmission = await api.anonymous<VerificationSummaryDto[]>('GET', `/api/v1/verifications?submission_id=${accepted.submission_id}`);
      expect(bySubmission.body.map((verification) => verification.id)).toEqual([ids[0]]);
      const rejected = await api.anonymous<VerificationSummaryDto[]>('GET', '/api/v1/verifications?status=rejected');
      expect(rejected.body.map((verification) => verification.status)).toEqual(rejected.body.map(() => 'rejected'));
      expect(rejected.body.map((verification) => verification.id)).toContain(ids[1]);
      const page = await api.anonymous<VerificationSummaryDto[]>('GET', '/api/v1/verifications?limit=1&offset=1');
      const all = await api.anonymous<VerificationSummaryDto[]>('GET', '/api/v1/verifications');
      expect(page.body.map((verification) => verification.id)).toEqual([all.body[1].id]);
      expect((await api.anonymous<VerificationSummaryDto[]>('GET', '/api/v1/verifications?submission_id=not-a-uuid')).body).toEqual([]);
      expect(itemsOf(await api.anonymous('GET', '/api/v1/verifications?status=ok&limit=0'))).toEqual([
        ['enum', 'query.status'],
        ['greater_than_equal', 'query.limit'],
      ]);
    });
  });

  describe('GET /submissions/{id}/replay.log', () => {
    it('serves the latest verification\'s replay log to admins, as text', async () => {
      const submission = await api.pending(people.eve, task.id);
      const job = await api.leaseOf(people.alice, submission);
      const none = await api.admin('GET', `/api/v1/submissions/${submission.id}/replay.log`);
      expectStatus(none, 404);
      expect(errorOf(none)).toBe('replay_log_not_found');
      expect(none.headers.get('content-type')).toContain('application/json');

      expectStatus(await api.result(people.alice, job.job_id, { status: 'rejected', replay_log: 'cloned\npatch failed\n' }), 200);
      const reply = await api.admin('GET', `/api/v1/submissions/${submission.id}/replay.log`);
      expectStatus(reply, 200);
      expect(reply.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(reply.text).toBe('cloned\npatch failed\n');
    });

    it('is for admins only, and 404 for unknown submissions', async () => {
      const submission = await api.pending(people.ferdie, task.id);
      const anonymous = await api.anonymous('GET', `/api/v1/submissions/${submission.id}/replay.log`);
      expectStatus(anonymous, 401);
      const signed = await api.signed(people.alice, 'GET', `/api/v1/submissions/${submission.id}/replay.log`);
      expectStatus(signed, 401);
      for (const id of [randomUUID(), 'nope']) {
        const reply = await api.admin('GET', `/api/v1/submissions/${id}/replay.log`);
        expectStatus(reply, 404);
        expect(errorOf(reply)).toBe('submission_not_found');
      }
    });
  });
});
