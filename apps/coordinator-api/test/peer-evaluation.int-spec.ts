import { randomUUID } from 'node:crypto';
import { BtAuthSigner } from '@rcs/auth';
import { BestResultDto, PeerConsensusDto, PeerEvaluationDto, SubmissionDto, TaskDto } from '@rcs/contracts';
import { PeerEvaluationRepository } from '../src/peer-evaluation/peer-evaluation.module';
import { SubmissionDetails } from '../src/submission-details/submission-details.module';
import { SubmissionEntity } from '../src/submissions/entities/submission.entity';
import { TaskEntity } from '../src/tasks/entities/task.entity';
import { CoordinatorHarness, startCoordinator, startCoordinatorForSuite } from './harness';
import { Body, errorOf, expectReplyFields, expectStatus, itemsOf, Reply, signerFor, TestClient } from './submissions-fixtures';

const PEER_EVALUATION_FIELDS = ['completed_at', 'created_at', 'evaluator_hotkey', 'id', 'notes', 'observed_metrics', 'status', 'submission_id'];
const CONSENSUS_FIELDS = [
  'accepted_count',
  'consensus_metric_value',
  'error_count',
  'metric_name',
  'rejected_count',
  'status',
  'submission_id',
  'threshold',
];
const ARTIFACT = { artifact_uri: 'https://cdn.test/models/a.bin', artifact_sha256: 'ab'.repeat(32), artifact_size_bytes: 1024 };

describe('peer evaluation', () => {
  let h: CoordinatorHarness;
  let api: TestClient;
  let alice: BtAuthSigner;
  let evaluators: BtAuthSigner[];
  let bob: BtAuthSigner;
  let charlie: BtAuthSigner;
  let dave: BtAuthSigner;
  let eve: BtAuthSigner;

  const peerTask = (fields: Body = {}): Promise<TaskDto> =>
    api.createTask({ competition_mode: 'peer_evaluation', min_peer_evaluations: 3, ...fields });
  const submittedOn = (taskId: string, miner: BtAuthSigner = alice): Promise<SubmissionDto> => api.submitted(miner, taskId, ARTIFACT);
  const evaluate = (signer: BtAuthSigner, submissionId: string, body: unknown) =>
    api.signed<PeerEvaluationDto>(signer, 'POST', `/api/v1/submissions/${submissionId}/peer-evaluate`, body);
  const accept = (signer: BtAuthSigner, submissionId: string, loss: number, extra: Body = {}) =>
    evaluate(signer, submissionId, { status: 'accepted', observed_metrics: { loss, ...extra } });
  const evaluated = async (reply: Promise<Reply<PeerEvaluationDto>>): Promise<PeerEvaluationDto> => {
    const answer = await reply;
    expectStatus(answer, 200);
    return answer.body;
  };
  const consensusOf = async (submissionId: string): Promise<PeerConsensusDto> => {
    const reply = await api.anonymous<PeerConsensusDto>('GET', `/api/v1/submissions/${submissionId}/peer-consensus`);
    expectStatus(reply, 200);
    return reply.body;
  };
  const listed = async (query: string): Promise<PeerEvaluationDto[]> => {
    const reply = await api.anonymous<PeerEvaluationDto[]>('GET', `/api/v1/peer-evaluations?${query}`);
    expectStatus(reply, 200);
    return reply.body;
  };
  const bestOf = (taskId: string) => api.anonymous<BestResultDto>('GET', `/api/v1/tasks/${taskId}/best`);
  const submissionRow = async (submissionId: string) => {
    const rows = (await h.db.dataSource.query(
      `SELECT status, decided_at, verified_metric_value, verified_secondary_metric_value FROM submissions WHERE id = $1`,
      [submissionId],
    )) as { status: string; decided_at: Date | null; verified_metric_value: number | null; verified_secondary_metric_value: number | null }[];
    return rows[0];
  };
  const countRows = async (sql: string, id: string): Promise<number> => {
    const rows = (await h.db.dataSource.query(sql, [id])) as { n: number }[];
    return rows[0].n;
  };
  const evaluationsOf = (submissionId: string) => countRows(`SELECT count(*)::int AS n FROM peer_evaluations WHERE submission_id = $1`, submissionId);
  const bestChangesOf = (taskId: string) => countRows(`SELECT count(*)::int AS n FROM best_result_changes WHERE task_id = $1`, taskId);

  startCoordinatorForSuite({ CLAIM_RATE_LIMIT_MAX: '0', SUBMISSION_RATE_LIMIT_MAX: '0' }, async (started) => {
    h = started;
    api = new TestClient(h);
    [alice, bob, charlie, dave, eve] = await Promise.all(['//Alice', '//Bob', '//Charlie', '//Dave', '//Eve'].map(signerFor));
    evaluators = await Promise.all(Array.from({ length: 6 }, (_, i) => signerFor(`//PeerEvaluator${i}`)));
  });

  describe('refusals', () => {
    let task: TaskDto;
    let submission: SubmissionDto;

    beforeAll(async () => {
      task = await peerTask();
      submission = await submittedOn(task.id);
    });

    it('stores an evaluation and answers it with exactly the spec fields', async () => {
      const other = await submittedOn(task.id);
      const reply = await evaluate(bob, other.id, { status: 'rejected', observed_metrics: { loss: 9.5, steps: 120 }, notes: 'Diverges.' });
      expectReplyFields(reply, 200, PEER_EVALUATION_FIELDS);
      expect(reply.body).toMatchObject({
        submission_id: other.id,
        evaluator_hotkey: bob.hotkey,
        status: 'rejected',
        observed_metrics: { loss: 9.5, steps: 120 },
        notes: 'Diverges.',
      });
      expect(reply.body.completed_at).toBe(reply.body.created_at);
      const rows = (await h.db.dataSource.query(`SELECT metric_value, task_id FROM peer_evaluations WHERE id = $1`, [reply.body.id])) as {
        metric_value: number;
        task_id: string;
      }[];
      expect(rows).toEqual([{ metric_value: 9.5, task_id: task.id }]);
    });

    it('refuses the owner with 403 cannot_evaluate_own_submission', async () => {
      const reply = await accept(alice, submission.id, 1);
      expect(reply.status).toBe(403);
      expect(errorOf(reply)).toBe('cannot_evaluate_own_submission');
      expect(await evaluationsOf(submission.id)).toBe(0);
    });

    it('refuses a second evaluation by the same evaluator with 409 duplicate_peer_evaluation', async () => {
      await evaluated(evaluate(charlie, submission.id, { status: 'rejected' }));
      const again = await accept(charlie, submission.id, 1);
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ detail: { error: 'duplicate_peer_evaluation', submission_id: submission.id, evaluator_hotkey: charlie.hotkey } });
      expect(await evaluationsOf(submission.id)).toBe(1);
    });

    it('lets only one of two simultaneous evaluations by one evaluator in', async () => {
      const fresh = await submittedOn(task.id);
      const replies = await Promise.all([accept(dave, fresh.id, 1), accept(dave, fresh.id, 2)]);
      expect(replies.map((reply) => reply.status).sort()).toEqual([200, 409]);
      expect(replies.map((reply) => (reply.status === 409 ? errorOf(reply) : 'ok')).sort()).toEqual(['duplicate_peer_evaluation', 'ok']);
      expect(await evaluationsOf(fresh.id)).toBe(1);
    });

    it('refuses submissions of standard and centerless tasks with 409 peer_evaluation_not_allowed', async () => {
      for (const mode of ['standard', 'centerless']) {
        const other = await api.createTask({ competition_mode: mode });
        const body = mode === 'centerless' ? { ...ARTIFACT, proposed_idea: 'Use a larger batch.' } : ARTIFACT;
        const validated = await api.submitted(alice, other.id, body);
        const reply = await accept(bob, validated.id, 1);
        expect(reply.status).toBe(409);
        expect(reply.body).toMatchObject({ detail: { error: 'peer_evaluation_not_allowed', competition_mode: mode } });
        const consensus = await api.anonymous('GET', `/api/v1/submissions/${validated.id}/peer-consensus`);
        expect(consensus.status).toBe(409);
        expect(errorOf(consensus)).toBe('peer_evaluation_not_allowed');
      }
    });

    it('answers 404 submission_not_found for unknown and malformed ids', async () => {
      for (const id of [randomUUID(), 'not-a-uuid']) {
        const reply = await accept(bob, id, 1);
        expect(reply.status).toBe(404);
        expect(errorOf(reply)).toBe('submission_not_found');
        const consensus = await api.anonymous('GET', `/api/v1/submissions/${id}/peer-consensus`);
        expect(consensus.status).toBe(404);
        expect(errorOf(consensus)).toBe('submission_not_found');
      }
    });

    it.each([
      ['accepted without the task metric', { status: 'accepted', observed_metrics: { accuracy: 0.9 } }, [['missing', 'body.observed_metrics.loss']]],
      ['accepted without observed_metrics', { status: 'accepted' }, [['missing', 'body.observed_metrics.loss']]],
      ['accepted with a string metric', { status: 'accepted', observed_metrics: { loss: '1.5' } }, [['finite_number', 'body.observed_metrics.loss']]],
      ['accepted with a null metric', { status: 'accepted', observed_metrics: { loss: null } }, [['finite_number', 'body.observed_metrics.loss']]],
      ['status pending', { status: 'pending', observed_metrics: { loss: 1 } }, [['enum', 'body.status']]],
      ['no status', { observed_metrics: { loss: 1 } }, [['missing', 'body.status']]],
      ['an unknown property', { status: 'rejected', verdict: 'bad' }, [['extra_forbidden', 'body.verdict']]],
      ['unpaired surrogates', { status: 'rejected', notes: 'a\ud800', observed_metrics: { ['lo\udc00ss']: 1 } }, [
        ['string_unicode', 'body.notes'],
        ['string_unicode', 'body.observed_metrics.lo\udc00ss'],
      ]],
      ['a metric that is not a number', { status: 'rejected', observed_metrics: { loss: 1, row: 'heldout 0.31,0.77' } }, [
        ['finite_number', 'body.observed_metrics.row'],
      ]],
      ['a metric name over 120 characters', { status: 'rejected', observed_metrics: { ['x'.repeat(121)]: 1 } }, [
        ['string_too_long', `body.observed_metrics.${'x'.repeat(121)}.[key]`],
      ]],
    ])('answers 422 for %s', async (_name, body, expected) => {
      expect(itemsOf(await evaluate(eve, submission.id, body))).toEqual(expected);
      expect(await countRows(`SELECT count(*)::int AS n FROM peer_evaluations WHERE evaluator_hotkey = $1`, eve.hotkey)).toBe(0);
    });

    it('accepts an evaluation with a finite metric after a refused one', async () => {
      const reply = await evaluated(accept(eve, submission.id, 0.25));
      expect(reply.status).toBe('accepted');
    });
  });

  describe('finalization', () => {
    it('accepts exactly when the accepted count reaches min_peer_evaluations, with the median metric', async () => {
      const task = await peerTask({ min_peer_evaluations: 3 });
      const submission = await submittedOn(task.id);
      expect(await consensusOf(submission.id)).toEqual({
        submission_id: submission.id,
        threshold: 3,
        accepted_count: 0,
        rejected_count: 0,
        error_count: 0,
        status: 'pending',
        metric_name: 'loss',
        consensus_metric_value: null,
      });

      await evaluated(accept(bob, submission.id, 3));
      await evaluated(evaluate(charlie, submission.id, { status: 'rejected', observed_metrics: { loss: 50 } }));
      await evaluated(accept(dave, submission.id, 1));
      await evaluated(evaluate(evaluators[0], submission.id, { status: 'error', notes: 'Artifact did not load.' }));
      // Two accepted of three: still pending, and the running values are not a consensus yet.
      expect(await consensusOf(submission.id)).toMatchObject({ accepted_count: 2, rejected_count: 1, error_count: 1, status: 'pending', consensus_metric_value: null });
      expect((await submissionRow(submission.id)).status).toBe('pending_verification');
      expect((await bestOf(task.id)).status).toBe(404);

      await evaluated(accept(eve, submission.id, 2));
      const consensus = await consensusOf(submission.id);
      expect(Object.keys(consensus).sort()).toEqual(CONSENSUS_FIELDS);
      expect(consensus).toEqual({
        submission_id: submission.id,
        threshold: 3,
        accepted_count: 3,
        rejected_count: 1,
        error_count: 1,
        status: 'accepted',
        metric_name: 'loss',
        consensus_metric_value: 2,
      });
      expect(await submissionRow(submission.id)).toMatchObject({ status: 'accepted', verified_metric_value: 2, verified_secondary_metric_value: null });
      expect((await submissionRow(submission.id)).decided_at).toBeInstanceOf(Date);
      const best = await bestOf(task.id);
      expectStatus(best, 200);
      expect(best.body).toMatchObject({ task_id: task.id, submission_id: submission.id, metric_value: 2, miner_hotkey: alice.hotkey });
      const detail = await api.signed<SubmissionDto>(alice, 'GET', `/api/v1/submissions/${submission.id}`);
      expect(detail.body.status).toBe('accepted');

      const late = await accept(evaluators[1], submission.id, 0.1);
      expect(late.status).toBe(409);
      expect(late.body).toMatchObject({ detail: { error: 'submission_already_decided', submission_status: 'accepted' } });
      expect(await evaluationsOf(submission.id)).toBe(5);
    });

    it('takes the mean of the middle two for an even count, and the secondary metric when every evaluator reported it', async () => {
      const task = await peerTask({ min_peer_evaluations: 2, secondary_metric_name: 'size_mb', secondary_metric_direction: 'minimize' });
      const both = await submittedOn(task.id);
      await evaluated(accept(bob, both.id, 1, { size_mb: 10 }));
      await evaluated(accept(charlie, both.id, 4, { size_mb: 30 }));
      expect((await consensusOf(both.id)).consensus_metric_value).toBe(2.5);
      expect(await submissionRow(both.id)).toMatchObject({ status: 'accepted', verified_metric_value: 2.5, verified_secondary_metric_value: 20 });
      const rows = (await h.db.dataSource.query(`SELECT metric_value, secondary_metric_value FROM best_results WHERE task_id = $1`, [task.id])) as unknown[];
      expect(rows).toEqual([{ metric_value: 2.5, secondary_metric_value: 20 }]);

      const partial = await submittedOn(task.id, dave);
      await evaluated(accept(bob, partial.id, 8, { size_mb: 5 }));
      await evaluated(accept(eve, partial.id, 6));
      expect(await submissionRow(partial.id)).toMatchObject({ status: 'accepted', verified_metric_value: 7, verified_secondary_metric_value: null });
    });

    it('rejects when the rejected count reaches min_peer_evaluations, and the best stays as it was', async () => {
      const task = await peerTask({ min_peer_evaluations: 2 });
      const submission = await submittedOn(task.id);
      await evaluated(evaluate(bob, submission.id, { status: 'rejected' }));
      await evaluated(accept(charlie, submission.id, 0.5));
      expect((await consensusOf(submission.id)).status).toBe('pending');
      await evaluated(evaluate(dave, submission.id, { status: 'rejected', notes: 'Cannot reproduce.' }));
      expect(await consensusOf(submission.id)).toMatchObject({
        accepted_count: 1,
        rejected_count: 2,
        error_count: 0,
        status: 'rejected',
        consensus_metric_value: null,
      });
      expect(await submissionRow(submission.id)).toMatchObject({ status: 'rejected', verified_metric_value: null });
      expect((await bestOf(task.id)).status).toBe(404);
      expect(await bestChangesOf(task.id)).toBe(0);
    });

    it('ends in error when the error count reaches min_peer_evaluations', async () => {
      const task = await peerTask({ min_peer_evaluations: 1 });
      const submission = await submittedOn(task.id);
      await evaluated(evaluate(bob, submission.id, { status: 'error', notes: 'Artifact 404.' }));
      expect(await consensusOf(submission.id)).toMatchObject({ threshold: 1, error_count: 1, status: 'error', consensus_metric_value: null });
      expect((await submissionRow(submission.id)).status).toBe('error');
    });

    it('moves the best result only when a decided submission beats it', async () => {
      const task = await peerTask({ min_peer_evaluations: 1 });
      const first = await submittedOn(task.id);
      const better = await submittedOn(task.id, bob);
      const worse = await submittedOn(task.id, charlie);
      await evaluated(accept(dave, first.id, 5));
      expect((await bestOf(task.id)).body).toMatchObject({ submission_id: first.id, metric_value: 5 });
      await evaluated(accept(dave, better.id, 3));
      expect((await bestOf(task.id)).body).toMatchObject({ submission_id: better.id, metric_value: 3, miner_hotkey: bob.hotkey });
      await evaluated(accept(dave, worse.id, 4));
      expect((await submissionRow(worse.id)).status).toBe('accepted');
      expect((await bestOf(task.id)).body).toMatchObject({ submission_id: better.id, metric_value: 3 });
      expect(await bestChangesOf(task.id)).toBe(2);
    });

    it('still takes evaluations of pending submissions on paused and closed tasks', async () => {
      for (const action of ['pause', 'close']) {
        const task = await peerTask({ min_peer_evaluations: 1 });
        const submission = await submittedOn(task.id);
        expectStatus(await api.admin('POST', `/api/v1/tasks/${task.id}/${action}`), 200);
        await evaluated(accept(bob, submission.id, 1.5));
        expect(await consensusOf(submission.id)).toMatchObject({ status: 'accepted', consensus_metric_value: 1.5 });
        // Submitted before the close, so it may still set the best (DECISIONS.md §3).
        expect((await bestOf(task.id)).body).toMatchObject({ submission_id: submission.id, metric_value: 1.5 });
      }
    });
  });

  describe('concurrent evaluators', () => {
    it('finalizes exactly once when min + 2 evaluators accept at the same time', async () => {
      const task = await peerTask({ min_peer_evaluations: 3 });
      const submission = await submittedOn(task.id);
      const signers = evaluators.slice(0, 5);
      const replies = await Promise.all(signers.map((signer, i) => accept(signer, submission.id, 10 + i)));

      const ok = replies.filter((reply) => reply.status === 200);
      const refused = replies.filter((reply) => reply.status !== 200);
      expect(ok).toHaveLength(3);
      expect(refused.map((reply) => [reply.status, errorOf(reply)])).toEqual([
        [409, 'submission_already_decided'],
        [409, 'submission_already_decided'],
      ]);
      const values = ok.map((reply) => reply.body.observed_metrics.loss as number).sort((a, b) => a - b);
      expect(await consensusOf(submission.id)).toMatchObject({ accepted_count: 3, rejected_count: 0, status: 'accepted', consensus_metric_value: values[1] });
      expect(await evaluationsOf(submission.id)).toBe(3);
      expect(await bestChangesOf(task.id)).toBe(1);
      expect((await bestOf(task.id)).body).toMatchObject({ submission_id: submission.id, metric_value: values[1] });
    });

    it('keeps the counts consistent with the one decision when verdicts are mixed', async () => {
      const task = await peerTask({ min_peer_evaluations: 2 });
      const submission = await submittedOn(task.id);
      const verdicts = ['accepted', 'rejected', 'accepted', 'rejected', 'error', 'accepted'];
      const replies = await Promise.all(
        evaluators.map((signer, i) => evaluate(signer, submission.id, { status: verdicts[i], observed_metrics: { loss: i + 1 } })),
      );
      const ok = replies.filter((reply) => reply.status === 200);
      expect(replies.filter((reply) => reply.status !== 200).every((reply) => reply.status === 409 && errorOf(reply) === 'submission_already_decided')).toBe(true);

      const consensus = await consensusOf(submission.id);
      const tally = (status: string) => ok.filter((reply) => reply.body.status === status).length;
      expect([consensus.accepted_count, consensus.rejected_count, consensus.error_count]).toEqual([tally('accepted'), tally('rejected'), tally('error')]);
      expect(await evaluationsOf(submission.id)).toBe(ok.length);
      // Exactly one count reached the threshold, and that one decided.
      const reached = (['accepted', 'rejected'] as const).filter((status) => tally(status) >= 2);
      expect(reached).toEqual([consensus.status]);
      expect((await submissionRow(submission.id)).status).toBe(consensus.status);
      expect(await bestChangesOf(task.id)).toBe(consensus.status === 'accepted' ? 1 : 0);
    });
  });

  describe('the submission detail', () => {
    it('reads the evaluations (newest first) and the consensus; null consensus outside peer_evaluation tasks', async () => {
      const task = await peerTask({ min_peer_evaluations: 2 });
      const submission = await submittedOn(task.id);
      const first = await evaluated(accept(bob, submission.id, 4));
      const second = await evaluated(accept(charlie, submission.id, 6));
      const manager = h.db.dataSource.manager;
      const readers = { peerEvaluations: h.app.get(PeerEvaluationRepository) };
      const detailOf = async (submissionId: string) => {
        const row = await manager.findOneByOrFail(SubmissionEntity, { id: submissionId });
        return h.app.get(SubmissionDetails).of(manager, await manager.findOneByOrFail(TaskEntity, { id: row.taskId }), row);
      };
      expect((await detailOf(submission.id)).peer_evaluations).toEqual([second, first]);
      expect((await detailOf(submission.id)).peer_consensus).toEqual(await consensusOf(submission.id));
      expect((await detailOf(submission.id)).peer_consensus).toMatchObject({ status: 'accepted', consensus_metric_value: 5 });

      const standard = await api.submitted(alice, (await api.createTask()).id, ARTIFACT);
      expect((await detailOf(standard.id)).peer_consensus).toBeNull();
      expect((await detailOf(standard.id)).peer_evaluations).toEqual([]);
      for (const unknown of [randomUUID(), 'not-a-uuid']) {
        expect(await readers.peerEvaluations.listForSubmission(manager, unknown)).toEqual([]);
      }
    });
  });

  describe('GET /api/v1/peer-evaluations', () => {
    let first: SubmissionDto;
    let second: SubmissionDto;
    let ids: Record<string, string>;

    beforeAll(async () => {
      const task = await peerTask({ min_peer_evaluations: 5 });
      first = await submittedOn(task.id);
      second = await submittedOn(task.id, bob);
      const a = await evaluated(accept(charlie, first.id, 1));
      const b = await evaluated(evaluate(dave, first.id, { status: 'rejected' }));
      const c = await evaluated(accept(charlie, second.id, 2));
      const d = await evaluated(evaluate(eve, second.id, { status: 'error' }));
      ids = { a: a.id, b: b.id, c: c.id, d: d.id };
    });

    it('filters by submission, evaluator and status, newest first', async () => {
      expect((await listed(`submission_id=${first.id}`)).map((e) => e.id)).toEqual([ids.b, ids.a]);
      expect((await listed(`evaluator_hotkey=${charlie.hotkey}&submission_id=${second.id}`)).map((e) => e.id)).toEqual([ids.c]);
      expect((await listed(`evaluator_hotkey=${charlie.hotkey}`)).map((e) => e.id).slice(0, 2)).toEqual([ids.c, ids.a]);
      expect((await listed(`submission_id=${second.id}&status=error`)).map((e) => e.id)).toEqual([ids.d]);
      expect(await listed(`submission_id=${second.id}&status=pending`)).toEqual([]);
      expect(await listed(`submission_id=not-a-uuid`)).toEqual([]);
      expect(await listed(`submission_id=${randomUUID()}`)).toEqual([]);
    });

    it('pages with limit and offset', async () => {
      const all = await listed('');
      expect(all.length).toBeGreaterThanOrEqual(4);
      expect(all[0].id).toBe(ids.d);
      expect((await listed('limit=2&offset=1')).map((e) => e.id)).toEqual(all.slice(1, 3).map((e) => e.id));
    });

    it('answers 422 for a bad query', async () => {
      expect(itemsOf(await api.anonymous('GET', '/api/v1/peer-evaluations?status=ok&limit=0&page=2'))).toEqual([
        ['extra_forbidden', 'query.page'],
        ['enum', 'query.status'],
        ['greater_than_equal', 'query.limit'],
      ]);
    });
  });
});

describe('peer evaluation stake gate', () => {
  let h: CoordinatorHarness;
  let api: TestClient;
  let miner: BtAuthSigner;
  let staked: BtAuthSigner;
  let unstaked: BtAuthSigner;

  beforeAll(async () => {
    [miner, staked, unstaked] = await Promise.all([signerFor('//Alice'), signerFor('//Bob'), signerFor('//PeerUnstaked')]);
    h = await startCoordinator({
      STAKE_CHECK: 'on',
      MINER_MIN_STAKE_RAO: '1000',
      DEV_CHAIN_SEED: JSON.stringify({
        subnets: { 1: [miner, staked].map((signer) => ({ hotkey: signer.hotkey, stake: '5000', uid: null })) },
      }),
    });
    api = new TestClient(h);
  });

  afterAll(async () => {
    await h.close();
  });

  it('answers 403 insufficient_miner_stake to an unstaked evaluator and 200 to a staked one', async () => {
    const task = await api.createTask({ competition_mode: 'peer_evaluation', min_peer_evaluations: 2 });
    const submission = await api.submitted(miner, task.id, ARTIFACT);
    const body = { status: 'accepted', observed_metrics: { loss: 1 } };

    const refused = await api.signed(unstaked, 'POST', `/api/v1/submissions/${submission.id}/peer-evaluate`, body);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ detail: { error: 'insufficient_miner_stake', hotkey: unstaked.hotkey } });
    expectStatus(await api.signed(staked, 'POST', `/api/v1/submissions/${submission.id}/peer-evaluate`, body), 200);
    const rows = (await h.db.dataSource.query(`SELECT evaluator_hotkey FROM peer_evaluations WHERE submission_id = $1`, [submission.id])) as unknown[];
    expect(rows).toEqual([{ evaluator_hotkey: staked.hotkey }]);
  });
});
