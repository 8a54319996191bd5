import { randomBytes } from 'node:crypto';
import { DASHBOARD_RECENT_DECISIONS, DASHBOARD_TASK_LIMIT, DashboardDto, SubmissionDto, SubmissionStatus, TaskDto, TaskState } from '@rcs/contracts';
import { CoordinatorHarness } from './harness';
import { expectStatus } from './submissions-fixtures';
import { backdateClaim, claimStatusInDb, insertSubmission, insertWorkItem, setTaskState } from './support/competition-rows';
import { cast, Cast, startValidation, startValidationCoordinator, ValidationClient } from './validator-jobs-fixtures';

/** Every field of a dashboard task, and nothing else. */
const TASK_FIELDS = [
  'active_claims',
  'best',
  'competition_mode',
  'created_at',
  'exposure',
  'id',
  'metric_direction',
  'metric_name',
  'open_work_items',
  'slug',
  'submissions',
  'task_state',
  'title',
];

async function fetchDashboard(h: CoordinatorHarness): Promise<{ body: DashboardDto; text: string }> {
  const response = await fetch(`${h.url}/api/v1/dashboard`);
  const text = await response.text();
  expect(response.status).toBe(200);
  return { body: JSON.parse(text) as DashboardDto, text };
}

describe('GET /api/v1/dashboard on an empty database', () => {
  let h: CoordinatorHarness;

  beforeAll(async () => {
    h = await startValidationCoordinator(await cast());
  });

  afterAll(async () => {
    await h.close();
  });

  it('answers every section, empty or zero', async () => {
    const before = Date.now();
    const { body } = await fetchDashboard(h);
    expect(body).toEqual({
      generated_at: expect.any(String),
      task_counts: { live: 0, paused: 0, closed: 0, total: 0 },
      tasks: [],
      tasks_truncated: false,
      validator_backlog: { pending_jobs: 0, leased_jobs: 0, expired_leases: 0, oldest_pending_age_seconds: null },
      recent_decisions: [],
    });
    expect(Date.parse(body.generated_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(body.generated_at)).toBeLessThanOrEqual(Date.now());
  });

  it('documents the route with the DashboardDto schema in /openapi.json', async () => {
    const document = (await (await fetch(`${h.url}/openapi.json`)).json()) as {
      paths: Record<string, { get?: { security?: unknown[]; responses: Record<string, { content?: { 'application/json'?: { schema?: { $ref?: string } } } }> } }>;
      components: { schemas: Record<string, unknown> };
    };
    const route = document.paths['/api/v1/dashboard'].get;
    expect(route?.responses['200'].content?.['application/json']?.schema?.$ref).toBe('#/components/schemas/DashboardDto');
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(['DashboardDto', 'DashboardTaskDto', 'DashboardValidatorBacklogDto', 'DashboardDecisionDto']),
    );
  });
});

/**
 * One populated database, built once and only read by the tests: a task with decisions, pending,
 * leased and expired-lease jobs, live and past-TTL claims and work items; a second task with
 * decisions; an empty newest task; and 200 older closed tasks that push the listing past its cap.
 */
describe('GET /api/v1/dashboard', () => {
  let h: CoordinatorHarness;
  let api: ValidationClient;
  let people: Cast;
  const secret = `dashboard-secret-${randomBytes(8).toString('hex')}`;
  let main: TaskDto;
  let side: TaskDto;
  let empty: TaskDto;
  const decided: SubmissionDto[] = [];
  let backfilledDecisions: string[];
  let pastTtlClaimId: string;

  /** Alice leases the submission's job and posts the verdict. */
  async function decide(submission: SubmissionDto, verdict: Record<string, unknown>): Promise<void> {
    const job = await api.leaseOf(people.alice, submission);
    expectStatus(await api.result(people.alice, job.job_id, { submission_id: submission.id, replay_log: `env ${secret}`, ...verdict }), 200);
    decided.push(submission);
  }

  async function oneJobLeasedBy(validator: Cast['alice'], submission: SubmissionDto): Promise<string> {
    const [job] = await api.leased(validator, { task_id: main.id, limit: 1 });
    expect(job.submission_id).toBe(submission.id);
    return job.job_id;
  }

  beforeAll(async () => {
    ({ people, h, api } = await startValidation());

    await api.query(
      `INSERT INTO tasks (slug, title, repository, base_ref, benchmark_command, max_patch_bytes, metric_name, metric_direction,
                          ranking_mode, competition_mode, min_peer_evaluations, time_budget_seconds, task_state, closed_at, created_at)
       SELECT 'old-' || i, 'Old task ' || i, 'https://git.test/old.git', 'main', 'python bench.py', 1024, 'loss', 'minimize',
              'scalar', 'standard', 1, 60, 'closed', now() - interval '1 day', now() - interval '1 day' - i * interval '1 second'
       FROM generate_series(1, 200) AS i`,
    );
    main = await api.createTask({ title: 'Main task', validator_benchmark_env: { HELDOUT_SHARD: secret } });
    side = await api.createTask({ title: 'Side task' });
    empty = await api.createTask({ title: 'Empty task' });

    await decide(await api.pending(people.dave, main.id), { status: 'accepted', observed_metrics: { loss: 0.5 } });
    await decide(await api.pending(people.eve, main.id), { status: 'rejected', notes: 'Replay diverged.' });
    await decide(await api.pending(people.ferdie, side.id), { status: 'error', notes: 'Replay crashed.' });
    await decide(await api.pending(people.dave, main.id), { status: 'accepted', observed_metrics: { loss: 0.7 } });
    await setTaskState(h.db, side.id, TaskState.Paused);

    // Older decisions, written straight to the table: the list shows only the newest of them.
    backfilledDecisions = [];
    for (let i = 0; i < DASHBOARD_RECENT_DECISIONS; i += 1) {
      backfilledDecisions.push(await insertSubmission(h.db, { taskId: side.id, minerHotkey: people.eve.hotkey, status: SubmissionStatus.Rejected }));
    }
    await api.query(
      `UPDATE submissions SET decided_at = now() - interval '1 day' - x.ord * interval '1 minute'
       FROM unnest($1::uuid[]) WITH ORDINALITY AS x(id, ord) WHERE submissions.id = x.id`,
      [backfilledDecisions],
    );

    // Two leased jobs, one of whose lease runs out; then one pending job, two minutes old.
    const expiring = await api.pending(people.eve, main.id);
    const leased = await api.pending(people.ferdie, main.id);
    const expiringJob = await oneJobLeasedBy(people.bob, expiring);
    await oneJobLeasedBy(people.alice, leased);
    await api.expireLease(expiringJob);
    const waiting = await api.pending(people.dave, main.id);
    await api.query(`UPDATE validator_jobs SET created_at = now() - interval '120 seconds' WHERE submission_id = $1`, [waiting.id]);

    await api.claim(people.charlie, main.id);
    pastTtlClaimId = (await api.claim(people.eve, main.id)).id;
    await backdateClaim(h.db, pastTtlClaimId);

    await insertWorkItem(h.db, main.id);
    await insertWorkItem(h.db, main.id);
    const cancelled = await insertWorkItem(h.db, main.id);
    await api.query(`UPDATE work_items SET status = 'cancelled' WHERE id = $1`, [cancelled]);
  }, 60_000);

  afterAll(async () => {
    await h.close();
  });

  const taskOf = (dashboard: DashboardDto, id: string) => dashboard.tasks.find((task) => task.id === id);

  it('lists tasks newest first up to the cap, and counts every task by state', async () => {
    const { body } = await fetchDashboard(h);
    expect(body.task_counts).toEqual({ live: 2, paused: 1, closed: 200, total: 203 });
    expect(body.tasks).toHaveLength(DASHBOARD_TASK_LIMIT);
    expect(body.tasks_truncated).toBe(true);
    expect(body.tasks.slice(0, 4).map((task) => task.slug)).toEqual([empty.slug, side.slug, main.slug, 'old-1']);
    // The three oldest are the ones left out.
    expect(body.tasks.at(-1)?.slug).toBe('old-197');
    const created = body.tasks.map((task) => Date.parse(task.created_at));
    expect(created).toEqual([...created].sort((a, b) => b - a));
  });

  it('shows each task with its best result and submissions per status, zeros included', async () => {
    const { body } = await fetchDashboard(h);
    expect(taskOf(body, main.id)).toEqual({
      id: main.id,
      slug: main.slug,
      title: 'Main task',
      task_state: 'live',
      competition_mode: 'standard',
      metric_name: 'loss',
      metric_direction: 'minimize',
      created_at: main.created_at,
      best: { submission_id: decided[0].id, miner_hotkey: people.dave.hotkey, metric_value: 0.5, updated_at: expect.any(String) },
      submissions: { pending_verification: 3, accepted: 2, rejected: 1, error: 0, total: 6 },
      active_claims: 1,
      open_work_items: 2,
      exposure: null,
    });
    expect(taskOf(body, side.id)).toMatchObject({
      task_state: 'paused',
      best: null,
      submissions: { pending_verification: 0, accepted: 0, rejected: DASHBOARD_RECENT_DECISIONS, error: 1, total: DASHBOARD_RECENT_DECISIONS + 1 },
    });
    expect(taskOf(body, empty.id)).toMatchObject({
      best: null,
      submissions: { pending_verification: 0, accepted: 0, rejected: 0, error: 0, total: 0 },
      active_claims: 0,
      open_work_items: 0,
    });
    for (const task of body.tasks) expect(Object.keys(task).sort()).toEqual(TASK_FIELDS);
  });

  it('never counts a claim past its TTL as active, even before the sweeper expires it', async () => {
    expect(await claimStatusInDb(h.db, pastTtlClaimId)).toBe('active');
    const { body } = await fetchDashboard(h);
    expect(taskOf(body, main.id)?.active_claims).toBe(1);
  });

  it('reports the validator backlog: pending, leased, expired leases and the age of the oldest pending job', async () => {
    const { body } = await fetchDashboard(h);
    const { oldest_pending_age_seconds: age, ...counts } = body.validator_backlog;
    expect(counts).toEqual({ pending_jobs: 1, leased_jobs: 2, expired_leases: 1 });
    expect(age).toBeGreaterThanOrEqual(120);
    expect(age).toBeLessThan(180);
  });

  it('lists the latest decisions, newest first, with the verified metric', async () => {
    const { body } = await fetchDashboard(h);
    expect(body.recent_decisions).toHaveLength(DASHBOARD_RECENT_DECISIONS);
    const [fourth, third, second, first] = [...decided].reverse();
    expect(body.recent_decisions.slice(0, 4).map(({ decided_at: _at, ...decision }) => decision)).toEqual([
      { task_id: main.id, task_slug: main.slug, submission_id: fourth.id, miner_hotkey: people.dave.hotkey, status: 'accepted', metric_name: 'loss', verified_metric_value: 0.7 },
      { task_id: side.id, task_slug: side.slug, submission_id: third.id, miner_hotkey: people.ferdie.hotkey, status: 'error', metric_name: 'loss', verified_metric_value: null },
      { task_id: main.id, task_slug: main.slug, submission_id: second.id, miner_hotkey: people.eve.hotkey, status: 'rejected', metric_name: 'loss', verified_metric_value: null },
      { task_id: main.id, task_slug: main.slug, submission_id: first.id, miner_hotkey: people.dave.hotkey, status: 'accepted', metric_name: 'loss', verified_metric_value: 0.5 },
    ]);
    expect(body.recent_decisions.slice(4).map((decision) => decision.submission_id)).toEqual(backfilledDecisions.slice(0, DASHBOARD_RECENT_DECISIONS - 4));
    const times = body.recent_decisions.map((decision) => Date.parse(decision.decided_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('never shows validator-private data', async () => {
    const { text } = await fetchDashboard(h);
    expect(text).not.toContain(secret);
    expect(text).not.toContain('validator_benchmark_env');
    expect(text).not.toContain('HELDOUT_SHARD');
  });
});
