import { randomUUID } from 'node:crypto';
import { SubmissionDto, SubmissionStatus, TaskDto, ValidatorJobDto } from '@rcs/contracts';
import { CoordinatorHarness, startCoordinator } from './harness';
import { errorOf, expectReplyFields, expectStatus, itemsOf, Reply, TestClient } from './submissions-fixtures';
import { insertSubmission } from './support/competition-rows';
import { Cast, startValidationForSuite, ValidationClient, VERIFICATION_FIELDS } from './validator-jobs-fixtures';

function messageOf(reply: Reply<unknown>): string {
  return (reply.body as { detail: { message: string } }).detail.message;
}

const BENCHMARK_ENV = { HELDOUT_SHARD: 'shard-7', DATASET_MIX: 'private' };

describe('validator worklists and results', () => {
  let h: CoordinatorHarness;
  let api: ValidationClient;
  let people: Cast;

  startValidationForSuite((setup) => ({ people, h, api } = setup));

  describe('allowlist', () => {
    it('answers 503 validator_allowlist_unconfigured on every validator route when no allowlist is set', async () => {
      const bare = await startCoordinator();
      try {
        const client = new TestClient(bare);
        const routes: [string, string][] = [
          ['POST', '/api/v1/validator/submissions/scan'],
          ['POST', '/api/v1/validator/jobs/claim'],
          ['POST', `/api/v1/validator/jobs/${randomUUID()}/result`],
          ['POST', `/api/v1/submissions/${randomUUID()}/verify`],
        ];
        for (const [method, url] of routes) {
          const reply = await client.signed(people.alice, method, url, { status: 'rejected' });
          expectStatus(reply, 503);
          expect(errorOf(reply)).toBe('validator_allowlist_unconfigured');
        }
      } finally {
        await bare.close();
      }
    });

    it('answers 403 validator_not_allowlisted to a hotkey not on the list, and 401 without a signature', async () => {
      const reply = await api.scan(people.charlie);
      expectStatus(reply, 403);
      expect(errorOf(reply)).toBe('validator_not_allowlisted');
      const anonymous = await api.anonymous('POST', '/api/v1/validator/submissions/scan');
      expectStatus(anonymous, 401);
    });
  });

  describe('scan', () => {
    let task: TaskDto;

    beforeAll(async () => {
      task = await api.createTask({ validator_benchmark_env: BENCHMARK_ENV, time_budget_seconds: 1200 });
    });

    it('leases the oldest pending job with its replay_spec; the public task never shows the benchmark env', async () => {
      const submission = await api.pending(people.dave, task.id);
      const reply = await api.scan(people.alice, { task_id: task.id });
      expectStatus(reply, 200);
      expect(reply.body.jobs).toHaveLength(1);
      const [job] = reply.body.jobs;
      expect(Object.keys(job).sort()).toEqual(['detail', 'heldout_rotation', 'job_id', 'lease_expires_at', 'reason', 'replay_spec', 'submission', 'submission_id', 'task']);
      expect(job).toMatchObject({
        submission_id: submission.id,
        submission: { id: submission.id, status: 'pending_verification' },
        task: { id: task.id, slug: task.slug },
        detail: { submission: { id: submission.id }, verifications: [], peer_evaluations: [], peer_consensus: null, idea_rewards: [], metric_name: 'loss' },
      });
      expect(job.replay_spec).toEqual({
        repository: task.repository,
        base_ref: 'main',
        base_commit_sha: null,
        setup_command: null,
        benchmark_command: 'python bench.py',
        result_path: null,
        allowed_patch_paths: ['src/**'],
        metric_name: 'loss',
        metric_direction: 'minimize',
        ranking_mode: 'scalar',
        secondary_metric_name: null,
        secondary_metric_direction: null,
        validator_benchmark_env: BENCHMARK_ENV,
        time_budget_seconds: 1200,
        max_patch_bytes: 262144,
        patch: '',
        artifact_uri: 'https://cdn.test/models/model.bin',
        artifact_sha256: 'ab'.repeat(32),
        artifact_size_bytes: 1024,
      });
      // The replay spec is the one place the private env appears.
      expect(reply.text.split('validator_benchmark_env')).toHaveLength(2);

      const [row] = await api.query<{ status: string; validator_hotkey: string; seconds: number }>(
        `SELECT status, validator_hotkey, extract(epoch FROM lease_expires_at - updated_at)::int AS seconds FROM validator_jobs WHERE id = $1`,
        [job.job_id],
      );
      // time_budget_seconds + LEASE_GRACE_SECONDS (900).
      expect(row).toEqual({ status: 'leased', validator_hotkey: people.alice.hotkey, seconds: 1200 + 900 });
      expect(Math.abs(new Date(job.lease_expires_at).getTime() - Date.now() - 2100_000)).toBeLessThan(60_000);

      for (const url of [`/api/v1/tasks/${task.id}`, '/api/v1/tasks', `/api/v1/tasks/${task.id}/onboard.md`]) {
        const reply = await api.anonymous('GET', url);
        expectStatus(reply, 200);
        expect(reply.text).not.toContain('validator_benchmark_env');
        expect(reply.text).not.toContain('shard-7');
      }
    });

    it('answers {jobs: []} when nothing is pending, with or without a body', async () => {
      const empty = await api.createTask();
      expect(await api.leased(people.alice, { task_id: empty.id })).toEqual([]);
      expect(await api.leased(people.alice, { task_id: 'not-a-uuid' })).toEqual([]);
      expect(await api.leased(people.alice, { task_slug: 'no-such-slug' })).toEqual([]);
      const reply = await api.scan(people.alice);
      expectStatus(reply, 200);
      expect(reply.body).toEqual({ jobs: expect.any(Array) as unknown });
    });

    it('leases oldest first, up to limit, filtered by task id or slug', async () => {
      const own = await api.createTask();
      const submissions: SubmissionDto[] = [];
      for (const miner of [people.dave, people.eve, people.ferdie]) submissions.push(await api.pending(miner, own.id));
      const first = await api.leased(people.alice, { task_slug: own.slug, limit: 2 });
      expect(first.map((job) => job.submission_id)).toEqual([submissions[0].id, submissions[1].id]);
      const rest = await api.leased(people.bob, { task_id: own.id, limit: 16 });
      expect(rest.map((job) => job.submission_id)).toEqual([submissions[2].id]);
      expect(await api.leased(people.bob, { task_id: own.id, limit: 16 })).toEqual([]);
    });

    it('refuses a limit outside 1..16 and unknown properties with 422', async () => {
      expect(itemsOf(await api.scan(people.alice, { limit: 17, page: 1 }))).toEqual([
        ['extra_forbidden', 'body.page'],
        ['less_than_equal', 'body.limit'],
      ]);
      expect(itemsOf(await api.scan(people.alice, { limit: 0 }))).toEqual([['greater_than_equal', 'body.limit']]);
    });

    it('never hands out two validators the same job when they scan at once', async () => {
      const contested = await api.createTask();
      for (let round = 0; round < 3; round += 1) {
        const ids: string[] = [];
        for (const miner of [people.dave, people.eve, people.ferdie, people.charlie, people.dave, people.eve, people.ferdie]) {
          ids.push((await api.pending(miner, contested.id)).id);
        }
        const [a, b] = await Promise.all([
          api.leased(people.alice, { task_id: contested.id, limit: 5 }),
          api.leased(people.bob, { task_id: contested.id, limit: 5 }),
        ]);
        const fromA = a.map((job) => job.submission_id);
        const fromB = b.map((job) => job.submission_id);
        expect(fromA.filter((id) => fromB.includes(id))).toEqual([]);
        expect([...fromA, ...fromB].sort()).toEqual([...ids].sort());
        const rows = await api.query<{ validator_hotkey: string; n: number }>(
          `SELECT validator_hotkey, count(*)::int AS n FROM validator_jobs WHERE submission_id = ANY($1) AND status = 'leased' GROUP BY 1 ORDER BY 1`,
          [ids],
        );
        expect(Object.fromEntries(rows.map((row) => [row.validator_hotkey, row.n]))).toEqual(
          Object.fromEntries(
            [
              [people.alice.hotkey, fromA.length],
              [people.bob.hotkey, fromB.length],
            ].filter(([, n]) => n !== 0),
          ),
        );
      }
    });

    it('never hands out jobs of peer_evaluation tasks or of submissions no longer pending', async () => {
      const peer = await api.createTask({ competition_mode: 'peer_evaluation' });
      const peerSubmission = await api.pending(people.dave, peer.id);
      expect(await api.query('SELECT id FROM validator_jobs WHERE submission_id = $1', [peerSubmission.id])).toEqual([]);
      const standard = await api.createTask();
      const decided = await insertSubmission(h.db, { taskId: standard.id, minerHotkey: people.eve.hotkey, status: SubmissionStatus.Accepted });
      // Stray pending jobs, as a bug or a manual fix might leave them.
      await api.query(`INSERT INTO validator_jobs (submission_id, task_id, status) VALUES ($1, $2, 'pending'), ($3, $4, 'pending')`, [
        peerSubmission.id,
        peer.id,
        decided,
        standard.id,
      ]);
      expect(await api.leased(people.alice, { task_id: peer.id, limit: 16 })).toEqual([]);
      expect(await api.leased(people.alice, { task_id: standard.id, limit: 16 })).toEqual([]);
      expect(await api.query(`SELECT status FROM validator_jobs WHERE submission_id = ANY($1)`, [[peerSubmission.id, decided]])).toEqual([
        { status: 'pending' },
        { status: 'pending' },
      ]);
    });
  });

  describe('job claim', () => {
    it('leases one job, and answers 404 no_pending_validator_jobs when there is none', async () => {
      const task = await api.createTask();
      const submission = await api.pending(people.dave, task.id);
      const claimed = await api.signed<ValidatorJobDto>(people.bob, 'POST', '/api/v1/validator/jobs/claim', { task_id: task.id });
      expectStatus(claimed, 200);
      expect(claimed.body).toMatchObject({ submission_id: submission.id, replay_spec: { metric_name: 'loss' } });
      const none = await api.signed(people.bob, 'POST', '/api/v1/validator/jobs/claim', { task_slug: task.slug });
      expectStatus(none, 404);
      expect(errorOf(none)).toBe('no_pending_validator_jobs');
      expect(messageOf(none).toLowerCase()).toContain('no pending validator jobs');
    });
  });

  describe('results', () => {
    let task: TaskDto;

    beforeAll(async () => {
      task = await api.createTask({ metric_direction: 'maximize', metric_name: 'accuracy', secondary_metric_name: 'size', secondary_metric_direction: 'minimize' });
    });

    it('decides by the observed metric, never the claimed one', async () => {
      const submission = await api.pending(people.dave, task.id, { claimed_metrics: { accuracy: 0.1 } });
      const job = await api.leaseOf(people.alice, submission);
      const reply = await api.result(people.alice, job.job_id, {
        status: 'accepted',
        observed_metrics: { accuracy: 0.9, size: 12 },
        notes: 'replayed',
        replay_log: 'step 1\nstep 2\n',
        submission_id: submission.id,
      });
      expectReplyFields(reply, 200, VERIFICATION_FIELDS);
      expect(reply.body).toMatchObject({
        submission_id: submission.id,
        job_id: job.job_id,
        task_id: task.id,
        validator_hotkey: people.alice.hotkey,
        status: 'accepted',
        metric_name: 'accuracy',
        metric_value: 0.9,
        observed_metrics: { accuracy: 0.9, size: 12 },
        notes: 'replayed',
      });
      expect(await api.query('SELECT status, verified_metric_value, verified_secondary_metric_value FROM submissions WHERE id = $1', [submission.id])).toEqual([
        { status: 'accepted', verified_metric_value: 0.9, verified_secondary_metric_value: 12 },
      ]);
      expect(await api.query('SELECT status, completed_at IS NOT NULL AS done FROM validator_jobs WHERE id = $1', [job.job_id])).toEqual([
        { status: 'completed', done: true },
      ]);
      const best = await api.anonymous('GET', `/api/v1/tasks/${task.id}/best`);
      expectStatus(best, 200);
      expect(best.body).toMatchObject({ submission_id: submission.id, metric_value: 0.9, miner_hotkey: people.dave.hotkey });
    });

    it('records rejected and error verdicts without a best result change', async () => {
      const rejected = await api.pending(people.eve, task.id, { claimed_metrics: { accuracy: 0.99 } });
      const job = await api.leaseOf(people.bob, rejected);
      const reply = await api.result(people.bob, job.job_id, { status: 'rejected', observed_metrics: { accuracy: 0.99 }, notes: 'patch did not apply' });
      expectStatus(reply, 200);
      expect(reply.body).toMatchObject({ status: 'rejected', metric_value: 0.99 });
      expect(await api.query('SELECT status, verified_metric_value FROM submissions WHERE id = $1', [rejected.id])).toEqual([
        { status: 'rejected', verified_metric_value: null },
      ]);
      expect(await api.query('SELECT count(*)::int AS n FROM best_result_changes WHERE submission_id = $1', [rejected.id])).toEqual([{ n: 0 }]);
    });

    it('lets only the lessee of a live lease post (409 job_not_leased otherwise)', async () => {
      const submission = await api.pending(people.ferdie, task.id);
      const [pendingJob] = await api.query<{ id: string }>('SELECT id FROM validator_jobs WHERE submission_id = $1', [submission.id]);
      const notLeased = await api.result(people.alice, pendingJob.id, { status: 'rejected' });
      expectStatus(notLeased, 409);
      expect(notLeased.body).toMatchObject({ detail: { error: 'job_not_leased', job_status: 'pending' } });

      const job = await api.leaseOf(people.alice, submission);
      const other = await api.result(people.bob, job.job_id, { status: 'rejected' });
      expectStatus(other, 409);
      expect(other.body).toMatchObject({ detail: { error: 'job_not_leased', job_status: 'leased' } });
      expect(messageOf(other)).toContain('another validator');

      await api.expireLease(job.job_id);
      const late = await api.result(people.alice, job.job_id, { status: 'rejected' });
      expectStatus(late, 409);
      expect(messageOf(late)).toContain('expired');
      expect(await api.query('SELECT status FROM submissions WHERE id = $1', [submission.id])).toEqual([{ status: 'pending_verification' }]);
      expect(await api.query('SELECT count(*)::int AS n FROM verifications WHERE submission_id = $1', [submission.id])).toEqual([{ n: 0 }]);
    });

    it('answers the same verification to an identical re-post, 409 job_already_completed to a different one', async () => {
      const submission = await api.pending(people.dave, task.id);
      const job = await api.leaseOf(people.bob, submission);
      const result = { status: 'accepted', observed_metrics: { size: 3, accuracy: 0.5, extra: -1.25e-7 }, notes: null, replay_log: 'log' };
      const first = await api.result(people.bob, job.job_id, result);
      expectStatus(first, 200);
      // The same values, keys in another order and the submission echoed: still identical.
      const again = await api.result(people.bob, job.job_id, {
        replay_log: 'log',
        submission_id: submission.id,
        observed_metrics: { extra: -1.25e-7, accuracy: 0.5, size: 3 },
        status: 'accepted',
      });
      expectStatus(again, 200);
      expect(again.body).toEqual(first.body);

      for (const different of [
        { ...result, observed_metrics: { ...result.observed_metrics, accuracy: 0.51 } },
        { ...result, status: 'rejected' },
        { ...result, notes: 'changed my mind' },
        { ...result, replay_log: 'another log' },
      ]) {
        const reply = await api.result(people.bob, job.job_id, different);
        expectStatus(reply, 409);
        expect(reply.body).toMatchObject({ detail: { error: 'job_already_completed', job_id: job.job_id, verification_id: first.body.id } });
      }
      // Another validator re-posting the same result did not record it.
      const stranger = await api.result(people.alice, job.job_id, result);
      expectStatus(stranger, 409);
      expect(errorOf(stranger)).toBe('job_already_completed');
      expect(await api.query('SELECT count(*)::int AS n FROM verifications WHERE job_id = $1', [job.job_id])).toEqual([{ n: 1 }]);
    });

    it('refuses accepted without a finite task metric, and a submission_id of another job, with 422', async () => {
      const submission = await api.pending(people.eve, task.id);
      const job = await api.leaseOf(people.alice, submission);
      expect(itemsOf(await api.result(people.alice, job.job_id, { status: 'accepted', observed_metrics: { size: 1 } }))).toEqual([
        ['missing', 'body.observed_metrics.accuracy'],
      ]);
      expect(itemsOf(await api.result(people.alice, job.job_id, { status: 'accepted', observed_metrics: { accuracy: '0.9' } }))).toEqual([
        ['finite_number', 'body.observed_metrics.accuracy'],
      ]);
      expect(itemsOf(await api.result(people.alice, job.job_id, { status: 'accepted', observed_metrics: { accuracy: null } }))).toEqual([
        ['finite_number', 'body.observed_metrics.accuracy'],
      ]);
      // Metrics are served publicly: names of 1..120 characters and finite numbers only, whatever the verdict.
      expect(itemsOf(await api.result(people.alice, job.job_id, { status: 'rejected', observed_metrics: { ['x'.repeat(121)]: 1 } }))).toEqual([
        ['string_too_long', `body.observed_metrics.${'x'.repeat(121)}.[key]`],
      ]);
      expect(itemsOf(await api.result(people.alice, job.job_id, { status: 'rejected', observed_metrics: { accuracy: 0.5, row: 'a,b' } }))).toEqual([
        ['finite_number', 'body.observed_metrics.row'],
      ]);
      expect(
        itemsOf(await api.result(people.alice, job.job_id, { status: 'accepted', observed_metrics: {}, submission_id: randomUUID() })),
      ).toEqual([
        ['missing', 'body.observed_metrics.accuracy'],
        ['submission_mismatch', 'body.submission_id'],
      ]);
      expect(itemsOf(await api.result(people.alice, job.job_id, { status: 'pending' }))).toEqual([['enum', 'body.status']]);
      // Nothing was decided; the lease still stands and the right result goes through.
      const ok = await api.result(people.alice, job.job_id, { status: 'error', notes: 'benchmark crashed' });
      expectStatus(ok, 200);
      expect(ok.body).toMatchObject({ status: 'error', metric_value: null, observed_metrics: {} });
    });

    it('answers 404 job_not_found for unknown and non-uuid job ids', async () => {
      for (const id of [randomUUID(), 'not-a-uuid']) {
        const reply = await api.result(people.alice, id, { status: 'rejected' });
        expectStatus(reply, 404);
        expect(errorOf(reply)).toBe('job_not_found');
      }
    });
  });
});
