import { once } from 'node:events';
import { DataSource, QueryRunner } from 'typeorm';
import { Queue, QueueEvents } from 'bullmq';
import { QueueName } from '@rcs/contracts';
import { JobQueue, redisOptionsFromUrl } from '@rcs/queue';
import { CoordinatorJobs } from '../src/jobs/coordinator-jobs';
import { RewardsRebuildService } from '../src/rewards/rewards-rebuild.service';
import { CoordinatorHarness } from './harness';
import { expectStatus } from './submissions-fixtures';
import { Cast, cast, startValidationCoordinator, ValidationClient } from './validation-fixtures';

/**
 * Freshness (DECISIONS.md §7): every decision asks for a rebuild through BullMQ, deduplicated so a
 * burst runs one rebuild, and a request that lands while one runs gets exactly one more run.
 * Runs are counted as completed jobs of the rewards queue.
 */
describe('reward snapshot rebuilds', () => {
  let h: CoordinatorHarness;
  let api: ValidationClient;
  let people: Cast;
  let queue: Queue;
  let events: QueueEvents;
  let rebuilds: RewardsRebuildService;

  beforeAll(async () => {
    people = await cast();
    h = await startValidationCoordinator(people);
    api = new ValidationClient(h);
    queue = h.app.get<JobQueue<CoordinatorJobs>>(JobQueue).queue(QueueName.Rewards);
    events = new QueueEvents(QueueName.Rewards, { connection: redisOptionsFromUrl(h.redis.url), prefix: `${h.redis.prefix}:bull` });
    await events.waitUntilReady();
    rebuilds = h.app.get(RewardsRebuildService);
  });

  afterAll(async () => {
    await events.close();
    await h.close();
  });

  /** Jobs not finished yet: waiting (also while the queue is paused), running or waiting for a retry. */
  async function unfinished(): Promise<number> {
    const counts = await queue.getJobCounts('wait', 'paused', 'prioritized', 'active', 'delayed');
    return Object.values(counts).reduce((sum, n) => sum + n, 0);
  }

  /** The next finished rebuild (rejected when one fails for good), with a way to stop listening. */
  function nextCompletion(): { done: Promise<void>; cancel: () => void } {
    let cancel = (): void => undefined;
    const done = new Promise<void>((resolve, reject) => {
      const onCompleted = (): void => {
        cancel();
        resolve();
      };
      const onFailed = (failure: { jobId: string; failedReason: string }): void => {
        cancel();
        reject(new RebuildFailedError(`${failure.jobId}: ${failure.failedReason}`));
      };
      cancel = () => {
        events.off('completed', onCompleted);
        events.off('failed', onFailed);
      };
      events.on('completed', onCompleted);
      events.on('failed', onFailed);
    });
    return { done, cancel };
  }

  /** Waits until no rebuild is waiting or running; listens before looking, so no completion slips between. */
  async function settled(): Promise<void> {
    for (;;) {
      const completion = nextCompletion();
      if ((await unfinished()) === 0) {
        completion.cancel();
        return;
      }
      await completion.done;
    }
  }

  it('runs one rebuild for a burst of 1,000 requests', async () => {
    await settled();
    const before = await queue.getCompletedCount();
    // Paused, the worker cannot start the first request's job before the last request arrives.
    await queue.pause();
    await Promise.all(Array.from({ length: 1000 }, (_, i) => rebuilds.request('decision', null).then(() => i)));
    const waiting = await queue.getJobs(['wait', 'paused']);
    expect(waiting).toHaveLength(1);
    await queue.resume();
    await waiting[0].waitUntilFinished(events, 20_000);
    await settled();
    expect((await queue.getCompletedCount()) - before).toBe(1);
    expect(await unfinished()).toBe(0);
  });

  it('runs exactly one more rebuild for requests that arrive while one is running', async () => {
    await settled();
    const before = await queue.getCompletedCount();
    // The rebuild reads tasks: while this transaction holds the table, the running rebuild waits inside its read.
    const holder: QueryRunner = h.db.dataSource.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    try {
      await holder.query('LOCK TABLE tasks IN ACCESS EXCLUSIVE MODE');
      const started = once(events, 'active');
      await rebuilds.request('decision', null);
      await started;
      await Promise.all([rebuilds.request('decision', null), rebuilds.request('task_state', null), rebuilds.request('decision', null)]);
      // The follow-up is held back until the running rebuild ends: one job running, none waiting.
      expect(await queue.getJobCounts('active', 'wait')).toEqual({ active: 1, wait: 0 });
      const firstDone = nextCompletion();
      await holder.commitTransaction();
      await firstDone.done;
    } finally {
      if (holder.isTransactionActive) await holder.rollbackTransaction();
      await holder.release();
    }
    await settled();
    expect((await queue.getCompletedCount()) - before).toBe(2);
    expect(await unfinished()).toBe(0);
  });

  it('names the miner of a decision made over HTTP once the rebuild it asked for has run', async () => {
    const task = await api.createTask({ metric_name: 'accuracy', metric_direction: 'maximize' });
    const submission = await api.pending(people.dave, task.id);
    const job = await api.leaseOf(people.alice, submission);
    const before = await queue.getCompletedCount();
    expectStatus(await api.result(people.alice, job.job_id, { status: 'accepted', observed_metrics: { accuracy: 0.9 } }), 200);
    await settled();
    expect((await queue.getCompletedCount()) - before).toBeGreaterThanOrEqual(1);

    const reply = await api.anonymous<{ competitions: { competition_id: string; miners: { miner_hotkey: string; score: number }[] }[] }>(
      'GET',
      '/api/v1/reward-snapshot',
    );
    expectStatus(reply, 200);
    const competition = reply.body.competitions.find((c) => c.competition_id === task.id);
    // Accepted (+1) and the best (+1), both just now: 2 up to the decay of the seconds since.
    expect(competition?.miners.map((m) => m.miner_hotkey)).toEqual([people.dave.hotkey]);
    expect(competition?.miners[0].score).toBeCloseTo(2, 4);
    const [stored] = (await h.app.get(DataSource).query('SELECT body FROM reward_snapshots')) as { body: string }[];
    expect(reply.text).toBe(stored.body);
  });
});

class RebuildFailedError extends Error {
  constructor(detail: string) {
    super(`a reward snapshot rebuild failed: ${detail}`);
    this.name = 'RebuildFailedError';
  }
}
