import { CompetitionMode, PlannerJob, QueueName, SubmissionStatus, TaskState, WorkItemDto } from '@rcs/contracts';
import { JobQueue } from '@rcs/queue';
import { CoordinatorJobs } from '../src/jobs/coordinator-jobs';
import { CoordinatorHarness, startCoordinator, startCoordinatorForSuite } from './harness';
import { errorOf, expectStatus, Reply, TestClient } from './submissions-fixtures';
import { FakeChatCompletions } from './support/fake-chat-completions';
import { insertSubmission, insertTask, TaskRow } from './support/competition-rows';

const BOB = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';
const CHARLIE = '5FLSigC9HGRKVhB9FiEo4Y3koPsNmBmLJbpXg2mp1hXcS59Y';

type ErrorBody = { detail: Record<string, unknown> };

/** Only `taskIds` stay live: planners plan every live task, so each test sets the tasks it looks at. */
async function onlyLive(h: CoordinatorHarness, taskIds: string[]): Promise<void> {
  await h.db.dataSource.query(`UPDATE tasks SET task_state = 'paused' WHERE task_state = 'live' AND NOT (id = ANY($1::uuid[]))`, [taskIds]);
}

async function itemsOfTask(api: TestClient, taskId: string): Promise<WorkItemDto[]> {
  const reply = await api.anonymous<WorkItemDto[]>('GET', `/api/v1/work-items?task_id=${taskId}`);
  expectStatus(reply, 200);
  return reply.body;
}

describe('POST /api/v1/planner/run', () => {
  let h: CoordinatorHarness;
  let api: TestClient;

  const run = () => api.admin<{ created: number }>('POST', '/api/v1/planner/run');

  startCoordinatorForSuite({}, (started) => {
    h = started;
    api = new TestClient(h);
  });

  it('answers 401 without the admin token', async () => {
    const reply = await api.anonymous<ErrorBody>('POST', '/api/v1/planner/run');
    expect(reply.status).toBe(401);
    expect(errorOf(reply)).toBe('invalid_admin_token');
  });

  it('keeps one improve-the-best item per live task and one item per available idea of centerless tasks', async () => {
    const standard = await insertTask(h.db);
    const centerless = await insertTask(h.db, { mode: CompetitionMode.Centerless });
    const paused = await insertTask(h.db, { state: TaskState.Paused, mode: CompetitionMode.Centerless });
    await onlyLive(h, [standard.id, centerless.id]);
    const idea = await insertSubmission(h.db, { taskId: centerless.id, minerHotkey: BOB, proposedIdea: 'Quantise the embeddings.' });
    const erroredIdea = await insertSubmission(h.db, {
      taskId: centerless.id,
      minerHotkey: CHARLIE,
      proposedIdea: 'Prune attention heads.',
      status: SubmissionStatus.Error,
    });
    await insertSubmission(h.db, { taskId: centerless.id, minerHotkey: CHARLIE, proposedIdea: 'Rejected idea.', status: SubmissionStatus.Rejected });
    await insertSubmission(h.db, { taskId: centerless.id, minerHotkey: BOB, proposedIdea: null });
    await insertSubmission(h.db, { taskId: standard.id, minerHotkey: BOB, proposedIdea: 'Ideas do not count on standard tasks.' });
    await insertSubmission(h.db, { taskId: paused.id, minerHotkey: BOB, proposedIdea: 'Paused tasks are not planned.' });

    const reply = await run();
    expectStatus(reply, 200);
    expect(reply.body).toEqual({ created: 4 });

    const [improveStandard] = await itemsOfTask(api, standard.id);
    expect(await itemsOfTask(api, standard.id)).toHaveLength(1);
    expect(improveStandard).toMatchObject({
      title: `Improve the current best of ${standard.slug}`,
      status: 'open',
      source: 'planner',
      idea_submission_id: null,
      parent_submission_id: null,
      claim_id: null,
    });
    expect(improveStandard.description).toContain('loss');
    const centerlessItems = await itemsOfTask(api, centerless.id);
    expect(centerlessItems.map((item) => [item.title, item.idea_submission_id]).sort()).toEqual(
      [
        [`Improve the current best of ${centerless.slug}`, null],
        [`Implement the idea of submission ${idea}`, idea],
        [`Implement the idea of submission ${erroredIdea}`, erroredIdea],
      ].sort(),
    );
    expect(centerlessItems.find((item) => item.idea_submission_id === idea)?.description).toContain('Quantise the embeddings.');
    expect(await itemsOfTask(api, paused.id)).toEqual([]);
  });

  it('never duplicates an item; a completed improve-the-best item is replaced, a planned idea is not', async () => {
    const task = await insertTask(h.db, { mode: CompetitionMode.Centerless });
    await onlyLive(h, [task.id]);
    const idea = await insertSubmission(h.db, { taskId: task.id, minerHotkey: BOB, proposedIdea: 'Distil into a smaller model.' });
    expect((await run()).body).toEqual({ created: 2 });
    expect((await run()).body).toEqual({ created: 0 });
    expect(await itemsOfTask(api, task.id)).toHaveLength(2);

    await h.db.dataSource.query(`UPDATE work_items SET status = 'completed' WHERE task_id = $1`, [task.id]);
    expect((await run()).body).toEqual({ created: 1 });
    const open = (await itemsOfTask(api, task.id)).filter((item) => item.status === 'open');
    expect(open.map((item) => item.title)).toEqual([`Improve the current best of ${task.slug}`]);
    expect(open[0].idea_submission_id).toBeNull();
    expect((await itemsOfTask(api, task.id)).filter((item) => item.idea_submission_id === idea)).toHaveLength(1);
  });

  it('runs one at a time: concurrent runs create each item once', async () => {
    const tasks: TaskRow[] = await Promise.all([insertTask(h.db), insertTask(h.db), insertTask(h.db)]);
    await onlyLive(
      h,
      tasks.map((task) => task.id),
    );
    const replies = await Promise.all([run(), run(), run()]);
    expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200]);
    expect(replies.reduce((sum, reply) => sum + reply.body.created, 0)).toBe(3);
    for (const task of tasks) expect(await itemsOfTask(api, task.id)).toHaveLength(1);
  });

  it('documents both planner routes with their error answers in /openapi.json', async () => {
    const document = (await (await fetch(`${h.url}/openapi.json`)).json()) as { paths: Record<string, { post: { responses: object } }> };
    expect(Object.keys(document.paths['/api/v1/planner/run'].post.responses).sort()).toEqual(['200', '401', '503', '504']);
    expect(Object.keys(document.paths['/api/v1/planner/run-agentic'].post.responses).sort()).toEqual(['200', '401', '502', '503', '504']);
  });

  it('answers 503 agentic_planner_unconfigured without queueing anything when no LLM is configured', async () => {
    const reply = await api.admin<ErrorBody>('POST', '/api/v1/planner/run-agentic');
    expect(reply.status).toBe(503);
    expect(errorOf(reply)).toBe('agentic_planner_unconfigured');
    const jobs = await h.app.get<JobQueue<CoordinatorJobs>>(JobQueue).queue(QueueName.Planner).getJobs();
    expect(jobs.filter((job) => job.name === PlannerJob.RunAgentic)).toEqual([]);
  });
});

describe('POST /api/v1/planner/run-agentic', () => {
  const SECRET = 'held-out-shard-7f3a';
  let h: CoordinatorHarness;
  let api: TestClient;
  let llm: FakeChatCompletions;

  const runAgentic = () => api.admin<{ created: number } | ErrorBody>('POST', '/api/v1/planner/run-agentic');
  const agenticItems = async (): Promise<number> => {
    const rows = (await h.db.dataSource.query(`SELECT count(*)::int AS n FROM work_items WHERE source = 'agentic_planner'`)) as { n: number }[];
    return rows[0].n;
  };
  const liveTask = async (): Promise<TaskRow> => {
    const task = await insertTask(h.db, { validatorBenchmarkEnv: { HELDOUT_SHARD: SECRET } });
    await onlyLive(h, [task.id]);
    return task;
  };
  const expectLlmFailure = (reply: Reply<unknown>, reason: RegExp): void => {
    expect(reply.status).toBe(502);
    expect(reply.body).toMatchObject({ detail: { error: 'planner_llm_failed', reason: expect.stringMatching(reason) } });
  };

  beforeAll(async () => {
    llm = await FakeChatCompletions.start();
    h = await startCoordinator({
      PLANNER_LLM_BASE_URL: llm.baseUrl,
      PLANNER_LLM_MODEL: 'planner-test-model',
      PLANNER_LLM_API_KEY: 'sk-planner-test',
      PLANNER_LLM_TIMEOUT_SECONDS: '1',
      PLANNER_RUN_TIMEOUT_SECONDS: '30',
    });
    api = new TestClient(h);
  });

  afterAll(async () => {
    await h.close();
    await llm.close();
  });

  it('stores the validated items of a good answer, asking with the public task only', async () => {
    const task = await liveTask();
    await insertSubmission(h.db, {
      taskId: task.id,
      minerHotkey: BOB,
      summary: 'Switched to AdamW.',
      proposedIdea: 'Try label smoothing.',
      status: SubmissionStatus.Accepted,
    });
    llm.answerWith(
      FakeChatCompletions.answer({
        work_items: [
          { title: '  Sweep the learning rate  ', description: 'Try 1e-4 to 1e-2 on a log grid.', priority: 70 },
          { title: 'Add gradient clipping', description: 'Clip at 1.0.', priority: 0 },
        ],
      }),
    );
    const before = llm.requests.length;
    const reply = await runAgentic();
    expectStatus(reply, 200);
    expect(reply.body).toEqual({ created: 2 });

    const items = await itemsOfTask(api, task.id);
    expect(items.map((item) => [item.title, item.description, item.priority, item.source, item.status]).sort()).toEqual([
      ['Add gradient clipping', 'Clip at 1.0.', 0, 'agentic_planner', 'open'],
      ['Sweep the learning rate', 'Try 1e-4 to 1e-2 on a log grid.', 70, 'agentic_planner', 'open'],
    ]);

    expect(llm.requests.slice(before)).toHaveLength(1);
    const request = llm.requests[before];
    expect(request).toMatchObject({ method: 'POST', path: '/v1/chat/completions' });
    expect(request.headers.authorization).toBe('Bearer sk-planner-test');
    const body = request.body as { model: string; response_format: unknown; messages: { role: string; content: string }[] };
    expect(body.model).toBe('planner-test-model');
    expect(body.response_format).toEqual({ type: 'json_object' });
    expect(body.messages.map((message) => message.role)).toEqual(['system', 'user']);
    const prompt = body.messages.map((message) => message.content).join('\n');
    expect(prompt).toContain(task.slug);
    expect(prompt).toContain('Switched to AdamW.');
    expect(prompt).toContain('Try label smoothing.');
    expect(JSON.stringify(request.body)).not.toContain(SECRET);
    expect(JSON.stringify(request.body)).not.toContain('validator_benchmark_env');
  });

  it('never stores an item twice, across runs and within one answer', async () => {
    const task = await liveTask();
    llm.answerWith(FakeChatCompletions.answer({ work_items: [{ title: 'Cache the tokenizer', description: 'Once.', priority: 10 }] }));
    expect((await runAgentic()).body).toEqual({ created: 1 });
    expect((await runAgentic()).body).toEqual({ created: 0 });
    llm.answerWith(
      FakeChatCompletions.answer({
        work_items: [
          { title: 'cache  the TOKENIZER', description: 'Same title, other spacing and case.', priority: 10 },
          { title: 'Fuse the optimizer step', description: 'New.', priority: 10 },
          { title: 'Fuse the optimizer step ', description: 'Repeated in the same answer.', priority: 20 },
        ],
      }),
    );
    expect((await runAgentic()).body).toEqual({ created: 1 });
    expect((await itemsOfTask(api, task.id)).map((item) => item.title).sort()).toEqual(['Cache the tokenizer', 'Fuse the optimizer step']);
  });

  it('answers 502 planner_llm_failed and stores nothing for an answer that is not JSON', async () => {
    await liveTask();
    const before = await agenticItems();
    llm.answerWith(FakeChatCompletions.content('Here are some ideas: 1. tune things'));
    expectLlmFailure(await runAgentic(), /not JSON/);
    expect(await agenticItems()).toBe(before);
  });

  it('answers 502 for JSON of the wrong shape', async () => {
    await liveTask();
    llm.answerWith(FakeChatCompletions.answer({ items: [{ title: 'Wrong key', description: 'x', priority: 1 }] }));
    expectLlmFailure(await runAgentic(), /work_items array/);
    llm.answerWith({ status: 200, json: { choices: [] } });
    expectLlmFailure(await runAgentic(), /choices\[0\]\.message\.content/);
  });

  it('answers 502 naming every bad field, and stores none of the answer', async () => {
    await liveTask();
    const before = await agenticItems();
    llm.answerWith(
      FakeChatCompletions.answer({
        work_items: [
          { title: 'A valid item', description: 'Fine.', priority: 50 },
          { title: 'ab', description: '', priority: 101, owner: 'me' },
          { title: 'Fractional priority', description: 'x', priority: 1.5 },
        ],
      }),
    );
    const reply = await runAgentic();
    expectLlmFailure(reply, /work_items\[1\]\.title/);
    const reason = String((reply.body as ErrorBody).detail['reason']);
    for (const problem of ['work_items[1] has unexpected property owner', 'work_items[1].description', 'work_items[1].priority', 'work_items[2].priority']) {
      expect(reason).toContain(problem);
    }
    expect(await agenticItems()).toBe(before);
  });

  it('answers 502 for more than 20 items', async () => {
    await liveTask();
    const items = Array.from({ length: 21 }, (_, i) => ({ title: `Item number ${i}`, description: 'x', priority: 1 }));
    llm.answerWith(FakeChatCompletions.answer({ work_items: items }));
    expectLlmFailure(await runAgentic(), /at most 20/);
  });

  it('stores nothing when any task of the run fails, even after a good answer for another', async () => {
    const first = await insertTask(h.db);
    const second = await insertTask(h.db);
    await onlyLive(h, [first.id, second.id]);
    const before = await agenticItems();
    llm.answerWith(
      FakeChatCompletions.answer({ work_items: [{ title: 'Good for one task', description: 'x', priority: 1 }] }),
      { status: 503, json: { error: 'busy' } },
    );
    expectLlmFailure(await runAgentic(), /HTTP 503/);
    expect(await agenticItems()).toBe(before);
  });

  it('answers 502 for an HTTP error from the endpoint', async () => {
    await liveTask();
    llm.answerWith({ status: 500, json: { error: { message: 'model overloaded' } } });
    expectLlmFailure(await runAgentic(), /HTTP 500/);
  });

  it('answers 502 when the endpoint does not answer within PLANNER_LLM_TIMEOUT_SECONDS', async () => {
    await liveTask();
    const before = await agenticItems();
    llm.answerWith({ hang: true });
    const started = Date.now();
    expectLlmFailure(await runAgentic(), /no answer within 1 s/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(await agenticItems()).toBe(before);
  });
});

describe('planner route timeout', () => {
  let h: CoordinatorHarness;
  let api: TestClient;
  let llm: FakeChatCompletions;

  beforeAll(async () => {
    llm = await FakeChatCompletions.start();
    h = await startCoordinator({
      PLANNER_LLM_BASE_URL: llm.baseUrl,
      PLANNER_LLM_MODEL: 'planner-test-model',
      PLANNER_LLM_TIMEOUT_SECONDS: '1',
      PLANNER_RUN_TIMEOUT_SECONDS: '2',
    });
    api = new TestClient(h);
  });

  afterAll(async () => {
    await h.close();
    await llm.close();
  });

  it('answers 504 planner_timeout when queued runs do not finish while the route waits', async () => {
    await insertTask(h.db);
    llm.answerWith({ hang: true });
    // Runs take turns, each waiting 1 s for the LLM: the third finishes after about 3 s, past the 2 s the route waits.
    const replies = await Promise.all([1, 2, 3].map(() => api.admin<ErrorBody>('POST', '/api/v1/planner/run-agentic')));
    const statuses = replies.map((reply) => reply.status);
    expect(statuses).toContain(502);
    expect(statuses).toContain(504);
    for (const reply of replies.filter((r) => r.status === 504)) {
      expect(reply.body).toMatchObject({ detail: { error: 'planner_timeout', job_id: expect.any(String) } });
    }
    expect(statuses.every((status) => status === 502 || status === 504)).toBe(true);
  });
});
