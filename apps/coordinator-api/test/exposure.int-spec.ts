import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BestResultChangeDto, BestResultDto, DashboardDto, HeldoutVerificationDto, RescoreResponseDto, SubmissionDto, TaskDto, VerificationSummaryDto } from '@rcs/contracts';
import { SseClient, type SseEvent } from '@rcs/testing';
import { expectStatus, itemsOf } from './submissions-fixtures';
import { startValidation, ValidationSetup } from './validator-jobs-fixtures';

/** The held-out exposure budget (DECISIONS §17), through the validator result route on a real stack. */
describe('held-out exposure budget', () => {
  let setup: ValidationSetup;
  let storeDir: string;
  let events: SseClient;

  beforeAll(async () => {
    storeDir = await mkdtemp(join(tmpdir(), 'rcs-exposure-'));
    setup = await startValidation({ HELDOUT_STORE_DIR: storeDir, EVENTS_HEARTBEAT_SECONDS: '1' });
    events = await SseClient.connect(`${setup.h.url}/api/v1/events`);
  });
  afterAll(async () => {
    events?.close();
    await setup?.h.close();
    await rm(storeDir, { recursive: true, force: true });
  });

  /** A submission of //Dave decided by //Alice with this raw loss; the validator's own answer, and the public one. */
  const decided = async (taskId: string, loss: number): Promise<{ submission: SubmissionDto; own: VerificationSummaryDto; shard: string | undefined }> => {
    const pending = await setup.api.pending(setup.people.dave, taskId);
    const job = await setup.api.leaseOf(setup.people.alice, pending);
    const reply = await setup.api.result(setup.people.alice, job.job_id, { status: 'accepted', observed_metrics: { loss, other: 7 } });
    expectStatus(reply, 200);
    const submission = await setup.api.signed<SubmissionDto>(setup.people.dave, 'GET', `/api/v1/submissions/${pending.id}`);
    expectStatus(submission, 200);
    return { submission: submission.body, own: reply.body, shard: job.replay_spec.validator_benchmark_env.HELDOUT_SHA256 };
  };
  const publicVerification = async (submissionId: string): Promise<VerificationSummaryDto> => {
    const reply = await setup.api.anonymous<VerificationSummaryDto[]>('GET', `/api/v1/verifications?submission_id=${submissionId}`);
    expectStatus(reply, 200);
    return reply.body[0];
  };
  const task = async (taskId: string): Promise<TaskDto> => {
    const reply = await setup.api.anonymous<TaskDto>('GET', `/api/v1/tasks/${taskId}`);
    expectStatus(reply, 200);
    return reply.body;
  };
  const best = async (taskId: string): Promise<BestResultDto> => (await setup.api.anonymous<BestResultDto>('GET', `/api/v1/tasks/${taskId}/best`)).body;
  const upload = async (taskId: string, name: string): Promise<string> => {
    const response = await fetch(`${setup.h.url}/api/v1/tasks/${taskId}/heldout`, {
      method: 'POST',
      body: Buffer.from(`labels ${randomBytes(16).toString('hex')}\n`),
      headers: { 'x-admin-token': setup.h.adminToken, 'content-type': 'application/octet-stream', 'x-heldout-name': name },
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { sha256: string }).sha256;
  };
  /** `exposure_changed` events about the task until one satisfies `done`. */
  const exposureEvents = async (taskId: string, done: (data: Record<string, unknown>) => boolean): Promise<Record<string, unknown>[]> => {
    const seen: Record<string, unknown>[] = [];
    for (;;) {
      const [event]: SseEvent[] = await events.take(1);
      const data = event.data as Record<string, unknown>;
      if (event.event !== 'exposure_changed' || data.task_id !== taskId) continue;
      seen.push(data);
      if (done(data)) return seen;
    }
  };

  it('leaves a task without a budget on exact release', async () => {
    const plain = await setup.api.createTask();
    expect(plain).toMatchObject({ heldout_budget: null, exposure: null });
    const { submission } = await decided(plain.id, 0.4988);
    expect(submission.release).toBeNull();
    expect((await publicVerification(submission.id)).metric_value).toBe(0.4988);
  });

  it('releases on the step grid only what beats R by more than the step, until the bits run out; the public never sees a raw metric', async () => {
    const budgeted = await setup.api.createTask({ heldout_budget: { step: 0.025, bits: 32 } });
    expect(budgeted.heldout_budget).toEqual({ enabled: true, step: 0.025, bits: 32, delta: 0.05 });
    expect(budgeted.exposure).toEqual({ spent_bits: 0, budget_bits: 32, releases: 0, status: 'open' });

    const first = await decided(budgeted.id, 0.4987);
    expect(first.submission.release).toBe('improved');
    expect(first.own).toMatchObject({ metric_value: 0.4987, observed_metrics: { loss: 0.4987, other: 7 } });
    expect(await publicVerification(first.submission.id)).toMatchObject({ metric_value: 0.5, observed_metrics: { loss: 0.5 } });
    expect(await best(budgeted.id)).toMatchObject({ submission_id: first.submission.id, metric_value: 0.5 });
    expect((await task(budgeted.id)).exposure).toEqual({ spent_bits: 16, budget_bits: 32, releases: 1, status: 'open' });

    const lucky = await decided(budgeted.id, 0.4801);
    expect(lucky.submission.release).toBe('not_significant');
    expect(await publicVerification(lucky.submission.id)).toMatchObject({ metric_value: 0.5, observed_metrics: { loss: 0.5 } });
    expect((await best(budgeted.id)).submission_id).toBe(first.submission.id);

    const real = await decided(budgeted.id, 0.4612);
    expect(real.submission.release).toBe('improved');
    expect(await best(budgeted.id)).toMatchObject({ submission_id: real.submission.id, metric_value: 0.45 });
    expect((await task(budgeted.id)).exposure).toEqual({ spent_bits: 32, budget_bits: 32, releases: 2, status: 'open' });

    // The shard is spent and the task scores on its validators' own data (one shard): nothing to rotate to.
    const held = await decided(budgeted.id, 0.3);
    expect(held.submission.release).toBe('held_for_rotation');
    expect(await publicVerification(held.submission.id)).toMatchObject({ metric_value: 0.45 });
    expect((await best(budgeted.id)).submission_id).toBe(real.submission.id);
    expect((await task(budgeted.id)).exposure).toEqual({ spent_bits: 32, budget_bits: 32, releases: 2, status: 'exhausted' });
    const dashboard = await setup.api.anonymous<DashboardDto>('GET', '/api/v1/dashboard');
    expect(dashboard.body.tasks.find((row) => row.id === budgeted.id)?.exposure).toEqual({ spent_bits: 32, budget_bits: 32, releases: 2, status: 'exhausted' });

    const announced = await exposureEvents(budgeted.id, (data) => data.status === 'exhausted');
    expect(announced.map((data) => [data.releases, data.spent_bits, data.status])).toEqual([
      [1, 16, 'open'],
      [2, 32, 'open'],
      [2, 32, 'exhausted'],
    ]);
    const publicTexts = [
      (await setup.api.anonymous('GET', `/api/v1/verifications?limit=1000`)).text,
      (await setup.api.anonymous('GET', `/api/v1/tasks/${budgeted.id}/best/history`)).text,
      (await setup.api.anonymous('GET', '/api/v1/dashboard')).text,
      JSON.stringify(announced),
    ];
    for (const text of publicTexts) for (const raw of ['0.4987', '0.4801', '0.4612']) expect(text).not.toContain(raw);

    // Admins read the raw metrics while the shard is in use, beside what each result released.
    const audit = await setup.api.admin<HeldoutVerificationDto[]>('GET', `/api/v1/tasks/${budgeted.id}/heldout/verifications`);
    expectStatus(audit, 200);
    expect(audit.body.map((row) => [row.submission_id, row.metric_value, row.observed_metrics.loss, row.release, row.released_metric_value, row.metric_withheld])).toEqual([
      [held.submission.id, 0.3, 0.3, 'held_for_rotation', 0.45, true],
      [real.submission.id, 0.4612, 0.4612, 'improved', 0.45, true],
      [lucky.submission.id, 0.4801, 0.4801, 'not_significant', 0.5, true],
      [first.submission.id, 0.4987, 0.4987, 'improved', 0.5, true],
    ]);
    expectStatus(await setup.api.anonymous('GET', `/api/v1/tasks/${budgeted.id}/heldout/verifications`), 401);
  });

  it('scores a budgeted task on its active shard, rotates to the next uploaded one when the budget is spent, re-scores the leader and held results there, and publishes the retired shard', async () => {
    const budgeted = await setup.api.createTask({ heldout_budget: { step: 0.025 }, validator_benchmark_env: { HELDOUT_SHARD: 'coordinator' } });
    const shardA = await upload(budgeted.id, 'a.bin');
    const shardB = await upload(budgeted.id, 'b.bin');

    const first = await decided(budgeted.id, 0.4987);
    expect(first.shard).toBe(shardA);
    expect(first.submission.release).toBe('improved');
    expect((await task(budgeted.id)).exposure).toEqual({ spent_bits: 16, budget_bits: 16, releases: 1, status: 'open' });
    expect((await publicVerification(first.submission.id)).metric_value).toBe(0.5);

    const second = await decided(budgeted.id, 0.41);
    expect(second.shard).toBe(shardA);
    expect(second.submission.release).toBe('held_for_rotation');
    // Shard A retired: its raw metrics are public now; shard B is active with a fresh budget.
    expect(await publicVerification(first.submission.id)).toMatchObject({ metric_value: 0.4987, observed_metrics: { loss: 0.4987, other: 7 } });
    expect((await task(budgeted.id)).exposure).toEqual({ spent_bits: 0, budget_bits: 16, releases: 0, status: 'open' });
    const rotated = (await exposureEvents(budgeted.id, (data) => data.rotated === true)).at(-1);
    expect(rotated).toMatchObject({ shard_seq: 2, rotated: true });

    // The leader, then the held result, are re-scored on shard B.
    const rescores = await setup.api.leased(setup.people.bob, { task_id: budgeted.id, limit: 16 });
    expect(rescores.map((job) => [job.reason, job.submission_id, job.replay_spec.validator_benchmark_env.HELDOUT_SHA256])).toEqual([
      ['rescore', first.submission.id, shardB],
      ['rescore', second.submission.id, shardB],
    ]);
    const leaderRescore = await setup.api.result(setup.people.bob, rescores[0].job_id, { status: 'accepted', observed_metrics: { loss: 0.5104 } });
    expectStatus(leaderRescore, 200);
    expect(await best(budgeted.id)).toMatchObject({ submission_id: first.submission.id, metric_value: 0.5 });
    expectStatus(await setup.api.result(setup.people.bob, rescores[1].job_id, { status: 'accepted', observed_metrics: { loss: 0.4093 } }), 200);
    expect(await best(budgeted.id)).toMatchObject({ submission_id: second.submission.id, metric_value: 0.4 });
    const again = await setup.api.signed<SubmissionDto>(setup.people.dave, 'GET', `/api/v1/submissions/${second.submission.id}`);
    expect(again.body.release).toBe('improved');
    expect((await task(budgeted.id)).exposure).toEqual({ spent_bits: 16, budget_bits: 16, releases: 1, status: 'open' });
    const publicTexts = (await setup.api.anonymous('GET', `/api/v1/verifications?limit=1000`)).text;
    for (const raw of ['0.5104', '0.4093']) expect(publicTexts).not.toContain(raw);

    // Shard B spent and none left: exhausted, until an admin uploads one and asks for a re-score.
    const third = await decided(budgeted.id, 0.3);
    expect(third.shard).toBe(shardB);
    expect(third.submission.release).toBe('held_for_rotation');
    expect((await task(budgeted.id)).exposure?.status).toBe('exhausted');
    const shardC = await upload(budgeted.id, 'c.bin');
    const rescore = await setup.api.admin<RescoreResponseDto>('POST', `/api/v1/tasks/${budgeted.id}/rescore`);
    expectStatus(rescore, 200);
    expect(rescore.body).toEqual({ task_id: budgeted.id, queued: 2, rotated: true, exposure: { spent_bits: 0, budget_bits: 16, releases: 0, status: 'open' } });
    const onC = await setup.api.leased(setup.people.bob, { task_id: budgeted.id, limit: 16 });
    expect(onC.map((job) => [job.submission_id, job.replay_spec.validator_benchmark_env.HELDOUT_SHA256])).toEqual([
      [second.submission.id, shardC],
      [third.submission.id, shardC],
    ]);
    // Shard B's raw metrics are public now, re-scores included.
    expect((await setup.api.anonymous('GET', `/api/v1/verifications?limit=1000`)).text).toContain('0.4093');
  });

  it('holds a result scored on a shard retired since, and re-scores it on the active one without rotating again', async () => {
    const budgeted = await setup.api.createTask({ heldout_budget: { step: 0.025 }, validator_benchmark_env: { HELDOUT_SHARD: 'coordinator' } });
    const shardA = await upload(budgeted.id, 'a.bin');
    await upload(budgeted.id, 'b.bin');
    const late = await setup.api.pending(setup.people.eve, budgeted.id);
    const lateJob = await setup.api.leaseOf(setup.people.alice, late);
    expect(lateJob.replay_spec.validator_benchmark_env.HELDOUT_SHA256).toBe(shardA);
    const leader = await decided(budgeted.id, 0.4987);
    const held = await decided(budgeted.id, 0.41);
    expect(held.submission.release).toBe('held_for_rotation');

    expectStatus(await setup.api.result(setup.people.alice, lateJob.job_id, { status: 'accepted', observed_metrics: { loss: 0.3 } }), 200);
    const lateNow = await setup.api.signed<SubmissionDto>(setup.people.eve, 'GET', `/api/v1/submissions/${late.id}`);
    expect(lateNow.body.release).toBe('held_for_rotation');
    expect((await task(budgeted.id)).exposure).toEqual({ spent_bits: 0, budget_bits: 16, releases: 0, status: 'open' });
    const rescores = await setup.api.leased(setup.people.bob, { task_id: budgeted.id, limit: 16 });
    expect(rescores.map((job) => job.submission_id)).toEqual([leader.submission.id, held.submission.id, late.id]);

    // The held result's re-score comes back before the leader's: it waits for R to restart from the leader's value.
    expectStatus(await setup.api.result(setup.people.bob, rescores[1].job_id, { status: 'accepted', observed_metrics: { loss: 0.4093 } }), 200);
    expect(await best(budgeted.id)).toMatchObject({ submission_id: leader.submission.id, metric_value: 0.5 });
    const waiting = await setup.api.signed<SubmissionDto>(setup.people.dave, 'GET', `/api/v1/submissions/${held.submission.id}`);
    expect(waiting.body.release).toBe('held_for_rotation');
    expectStatus(await setup.api.result(setup.people.bob, rescores[0].job_id, { status: 'accepted', observed_metrics: { loss: 0.5104 } }), 200);
    expect(await best(budgeted.id)).toMatchObject({ submission_id: held.submission.id, metric_value: 0.4 });
    const leaderNow = await setup.api.signed<SubmissionDto>(setup.people.dave, 'GET', `/api/v1/submissions/${leader.submission.id}`);
    // Its re-score released nothing new: the leader's own earlier release stands.
    expect(leaderNow.body.release).toBe('improved');
  });

  it('restarts R and the best from the leader\'s new value, worse than its old one, and only then releases what came back meanwhile', async () => {
    const budgeted = await setup.api.createTask({ heldout_budget: { step: 0.025 }, validator_benchmark_env: { HELDOUT_SHARD: 'coordinator' } });
    await upload(budgeted.id, 'a.bin');
    const shardB = await upload(budgeted.id, 'b.bin');
    const shardC = await upload(budgeted.id, 'c.bin');
    const leader = await decided(budgeted.id, 0.4612);
    expect(await best(budgeted.id)).toMatchObject({ submission_id: leader.submission.id, metric_value: 0.45 });
    const held = await decided(budgeted.id, 0.38);
    expect(held.submission.release).toBe('held_for_rotation');

    // A fresh result on shard B before the leader's re-score: R is not there yet, so it is held, not released against nothing.
    const early = await setup.api.pending(setup.people.eve, budgeted.id);
    const jobs = await setup.api.leased(setup.people.alice, { task_id: budgeted.id, limit: 16 });
    const jobOf = (submissionId: string): string => jobs.find((job) => job.submission_id === submissionId)?.job_id ?? 'none';
    expect(jobs.map((job) => job.replay_spec.validator_benchmark_env.HELDOUT_SHA256)).toEqual([shardB, shardB, shardB]);
    expectStatus(await setup.api.result(setup.people.alice, jobOf(early.id), { status: 'accepted', observed_metrics: { loss: 0.39 } }), 200);
    const earlyNow = await setup.api.signed<SubmissionDto>(setup.people.eve, 'GET', `/api/v1/submissions/${early.id}`);
    expect(earlyNow.body).toMatchObject({ release: 'held_for_rotation' });
    expect((await task(budgeted.id)).exposure).toEqual({ spent_bits: 0, budget_bits: 16, releases: 0, status: 'open' });
    expect((await best(budgeted.id)).submission_id).toBe(leader.submission.id);

    // The leader scores worse on shard B: R and the best restart from 0.5 (not its old 0.45); then the early result is released against it.
    expectStatus(await setup.api.result(setup.people.alice, jobOf(leader.submission.id), { status: 'accepted', observed_metrics: { loss: 0.5104 } }), 200);
    const history = (await setup.api.anonymous<BestResultChangeDto[]>('GET', `/api/v1/tasks/${budgeted.id}/best/history`)).body;
    expect(history.map((change) => [change.submission_id, change.metric_value])).toEqual([
      [leader.submission.id, 0.45],
      [leader.submission.id, 0.5],
      [early.id, 0.4],
    ]);
    // The public sees the leader's new value on the grid, never its raw one.
    expect(await publicVerification(leader.submission.id)).toMatchObject({ metric_value: 0.5, observed_metrics: { loss: 0.5 } });
    expect((await setup.api.signed<SubmissionDto>(setup.people.eve, 'GET', `/api/v1/submissions/${early.id}`)).body.release).toBe('improved');
    expect(await publicVerification(early.id)).toMatchObject({ metric_value: 0.4 });
    expect((await task(budgeted.id)).exposure).toEqual({ spent_bits: 16, budget_bits: 16, releases: 1, status: 'open' });

    // Shard B spent: a significant result rotates to C before the held result's re-score on B comes back. That re-score
    // releases nothing, and its raw metric, on a shard retired now, is public like the rest of B's.
    const rotating = await decided(budgeted.id, 0.3);
    expect(rotating.submission.release).toBe('held_for_rotation');
    expect((await task(budgeted.id)).exposure).toEqual({ spent_bits: 0, budget_bits: 16, releases: 0, status: 'open' });
    expectStatus(await setup.api.result(setup.people.alice, jobOf(held.submission.id), { status: 'accepted', observed_metrics: { loss: 0.4171 } }), 200);
    expect((await publicVerification(held.submission.id)).metric_value).toBe(0.4171);
    expect((await setup.api.signed<SubmissionDto>(setup.people.dave, 'GET', `/api/v1/submissions/${held.submission.id}`)).body.release).toBe('held_for_rotation');
    const onC = await setup.api.leased(setup.people.bob, { task_id: budgeted.id, limit: 16 });
    expect(onC.map((job) => [job.submission_id, job.replay_spec.validator_benchmark_env.HELDOUT_SHA256])).toEqual([
      [early.id, shardC],
      [held.submission.id, shardC],
      [rotating.submission.id, shardC],
    ]);
  });

  it('ends the wait when the leader\'s re-score runs out of lease attempts: what was held for it is released, not held until the next rotation', async () => {
    const budgeted = await setup.api.createTask({ heldout_budget: { step: 0.025 }, validator_benchmark_env: { HELDOUT_SHARD: 'coordinator' } });
    await upload(budgeted.id, 'a.bin');
    await upload(budgeted.id, 'b.bin');
    const leader = await decided(budgeted.id, 0.4612);
    const held = await decided(budgeted.id, 0.38);
    expect(held.submission.release).toBe('held_for_rotation');
    const early = await setup.api.pending(setup.people.eve, budgeted.id);
    const jobs = await setup.api.leased(setup.people.alice, { task_id: budgeted.id, limit: 16 });
    const jobOf = (submissionId: string): string => jobs.find((job) => job.submission_id === submissionId)?.job_id ?? 'none';
    expectStatus(await setup.api.result(setup.people.alice, jobOf(early.id), { status: 'accepted', observed_metrics: { loss: 0.39 } }), 200);
    const earlyRelease = async (): Promise<string | null | undefined> => (await setup.api.signed<SubmissionDto>(setup.people.eve, 'GET', `/api/v1/submissions/${early.id}`)).body.release;
    expect(await earlyRelease()).toBe('held_for_rotation');

    // The leader's re-score job loses its last lease: the sweeper ends it as a failed re-score.
    await setup.api.query(`UPDATE validator_jobs SET attempts = 1000, lease_expires_at = now() - interval '1 second' WHERE id = $1`, [jobOf(leader.submission.id)]);
    await setup.api.sweepLeases();
    expect(await setup.api.query('SELECT status FROM validator_jobs WHERE id = $1', [jobOf(leader.submission.id)])).toEqual([{ status: 'completed' }]);
    const leaderVerifications = await setup.api.query<{ status: string }>('SELECT status FROM verifications WHERE submission_id = $1 ORDER BY created_at', [leader.submission.id]);
    expect(leaderVerifications.map((row) => row.status)).toEqual(['accepted', 'error']);
    // The leader's submission stays as decided; the early result no longer waits, and is released.
    expect((await setup.api.signed<SubmissionDto>(setup.people.dave, 'GET', `/api/v1/submissions/${leader.submission.id}`)).body.status).toBe('accepted');
    expect(await earlyRelease()).toBe('improved');
    expect((await best(budgeted.id)).submission_id).toBe(early.id);
    // The held result still waits for its own re-score, which is leased and comes back as usual.
    expectStatus(await setup.api.result(setup.people.alice, jobOf(held.submission.id), { status: 'accepted', observed_metrics: { loss: 0.41 } }), 200);
  });

  it('uses the paired per-item spread against the leader when results report per_item, and derives a shard\'s budget from n and σ', async () => {
    /** n 0/1 values with `ones` ones at the given positions' start, as a benchmark's `per_item` of a 0/1 loss. */
    const items = (n: number, ones: (i: number) => boolean): number[] => Array.from({ length: n }, (_, i) => (ones(i) ? 1 : 0));
    const decidedWith = async (taskId: string, loss: number, perItem: unknown): Promise<SubmissionDto> => {
      const pending = await setup.api.pending(setup.people.dave, taskId);
      const job = await setup.api.leaseOf(setup.people.alice, pending);
      expectStatus(await setup.api.result(setup.people.alice, job.job_id, { status: 'accepted', observed_metrics: { loss }, per_item: perItem }), 200);
      return (await setup.api.signed<SubmissionDto>(setup.people.dave, 'GET', `/api/v1/submissions/${pending.id}`)).body;
    };

    const paired = await setup.api.createTask({ heldout_budget: { step: 0.025, bits: 48 } });
    const first = await decidedWith(paired.id, 0.5, items(100, (i) => i < 50));
    expect(first.release).toBe('improved');
    // 0.46 beats R = 0.5 by more than the step, but its per-item differences against the leader spread by s = 0.71:
    // s/√n = 0.071 > 0.04, so the gain is not significant.
    const noisy = await decidedWith(paired.id, 0.46, items(100, (i) => i < 23 || (i >= 50 && i < 73)));
    expect(noisy.release).toBe('not_significant');
    // 0.3: s = 0.40, s/√n = 0.040 < 0.2.
    const real = await decidedWith(paired.id, 0.3, items(100, (i) => i < 30));
    expect(real.release).toBe('improved');
    expect(await best(paired.id)).toMatchObject({ submission_id: real.id, metric_value: 0.3 });
    // Per-item values are the coordinator's only: no public read carries them.
    expect((await setup.api.anonymous('GET', `/api/v1/verifications?submission_id=${noisy.id}`)).text).not.toContain('per_item');

    // Without bits, the shard's budget comes from its first per-item result: (20000·0.025²/(2·0.5²) − ln 40) / ln 2 = 30.7.
    const derived = await setup.api.createTask({ heldout_budget: { step: 0.025 } });
    await decidedWith(derived.id, 0.5, items(20_000, (i) => i % 2 === 0));
    expect((await task(derived.id)).exposure).toEqual({ spent_bits: 16, budget_bits: 30, releases: 1, status: 'open' });

    const pending = await setup.api.pending(setup.people.dave, derived.id);
    const job = await setup.api.leaseOf(setup.people.alice, pending);
    expectStatus(await setup.api.result(setup.people.alice, job.job_id, { status: 'accepted', observed_metrics: { loss: 0.4 }, per_item: [0, 'one'] }), 422);
    expectStatus(await setup.api.result(setup.people.alice, job.job_id, { status: 'accepted', observed_metrics: { loss: 0.4 }, per_item: items(20_001, () => true) }), 422);
  });

  it('re-scores the leader of a task without a budget on admin request, and the best restarts from its new raw value', async () => {
    const plain = await setup.api.createTask();
    const leader = await decided(plain.id, 0.42);
    expect(await best(plain.id)).toMatchObject({ submission_id: leader.submission.id, metric_value: 0.42 });
    const rescore = await setup.api.admin<RescoreResponseDto>('POST', `/api/v1/tasks/${plain.id}/rescore`);
    expect(rescore.body).toEqual({ task_id: plain.id, queued: 1, rotated: false, exposure: null });
    expect((await setup.api.admin<RescoreResponseDto>('POST', `/api/v1/tasks/${plain.id}/rescore`)).body.queued).toBe(0);
    const [job] = await setup.api.leased(setup.people.alice, { task_id: plain.id });
    expect(job).toMatchObject({ reason: 'rescore', submission_id: leader.submission.id });
    expectStatus(await setup.api.result(setup.people.alice, job.job_id, { status: 'accepted', observed_metrics: { loss: 0.44 } }), 200);
    expect(await best(plain.id)).toMatchObject({ submission_id: leader.submission.id, metric_value: 0.44 });
    expectStatus(await setup.api.admin('POST', `/api/v1/tasks/00000000-0000-4000-8000-000000000000/rescore`), 404);
    expectStatus(await setup.api.anonymous('POST', `/api/v1/tasks/${plain.id}/rescore`), 401);
  });

  it('leases re-score jobs before older decide jobs, so the releases that wait for a leader\'s re-score do not wait for a backlog', async () => {
    const plain = await setup.api.createTask();
    const leader = await decided(plain.id, 0.42);
    const older = await setup.api.pending(setup.people.eve, plain.id);
    expectStatus(await setup.api.admin<RescoreResponseDto>('POST', `/api/v1/tasks/${plain.id}/rescore`), 200);
    const [first] = await setup.api.leased(setup.people.alice, { task_id: plain.id, limit: 1 });
    expect(first).toMatchObject({ reason: 'rescore', submission_id: leader.submission.id });
    const [next] = await setup.api.leased(setup.people.alice, { task_id: plain.id, limit: 1 });
    expect(next).toMatchObject({ reason: 'decide', submission_id: older.id });
  });

  it('sets a budget on an existing task, and refuses a bad one with 422 and an unknown task with 404', async () => {
    const plain = await setup.api.createTask();
    const set = await setup.api.admin<TaskDto>('PUT', `/api/v1/tasks/${plain.id}/heldout-budget`, { bits: 48 });
    expectStatus(set, 200);
    expect(set.body).toMatchObject({ heldout_budget: { enabled: true, step: 0, bits: 48, delta: 0.05 }, exposure: { budget_bits: 48, status: 'open' } });
    const dashboard = await setup.api.anonymous<DashboardDto>('GET', '/api/v1/dashboard');
    expect(dashboard.body.tasks.find((row) => row.id === plain.id)?.exposure).toEqual({ spent_bits: 0, budget_bits: 48, releases: 0, status: 'open' });
    expect(itemsOf(await setup.api.admin('PUT', `/api/v1/tasks/${plain.id}/heldout-budget`, { bits: 8 }))).toEqual([['greater_than_equal', 'body.bits']]);
    expect(itemsOf(await setup.api.admin('PUT', `/api/v1/tasks/${plain.id}/heldout-budget`, { step: -1, rounds: 2 }))).toEqual([
      ['extra_forbidden', 'body.rounds'],
      ['greater_than_equal', 'body.step'],
    ]);
    expectStatus(await setup.api.admin('PUT', `/api/v1/tasks/00000000-0000-4000-8000-000000000000/heldout-budget`, { bits: 48 }), 404);
    expectStatus(await setup.api.anonymous('PUT', `/api/v1/tasks/${plain.id}/heldout-budget`, { bits: 48 }), 401);
    const off = await setup.api.admin<TaskDto>('PUT', `/api/v1/tasks/${plain.id}/heldout-budget`, { enabled: false });
    expect(off.body).toMatchObject({ heldout_budget: { enabled: false }, exposure: null });
  });
});
