import { once } from 'node:events';
import { DataSource, QueryRunner } from 'typeorm';
import { Queue, QueueEvents } from 'bullmq';
import { QueueName, RewardsJob } from '@rcs/contracts';
import { JobQueue } from '@rcs/queue';
import { CoordinatorJobs } from '../src/jobs/coordinator-jobs';
import { RewardsRebuildJob, SNAPSHOT_CHECK_SCHEDULER_ID } from '../src/rewards/rewards-rebuild.job';
import { ScheduleKeeper } from '../src/jobs/schedule-keeper';
import { RewardsRebuildService } from '../src/rewards/rewards-rebuild.service';
import { CoordinatorHarness } from './harness';
import { expectStatus } from './submissions-fixtures';
import { nextRebuild, rewardsQueueEvents } from './support/rewards-queue-events';
import { until } from './support/until';
import { Cast, cast, startValidationCoordinator, ValidationClient } from './validator-jobs-fixtures';

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
    // The periodic check runs at boot and then not during these tests, so runs can be counted.
    h = await startValidationCoordinator(people, { SNAPSHOT_CHECK_INTERVAL_SECONDS: '3600' });
    api = new ValidationClient(h);
    queue = h.app.get<JobQueue<CoordinatorJobs>>(JobQueue).queue(QueueName.Rewards);
    events = await rewardsQueueEvents(h);
    rebuilds = h.app.get(RewardsRebuildService);
  });

  afterAll(async () => {
    await events.close();
    await h.close();
  });

  /** Rebuilds not finished yet: waiting (also while the queue is paused), running or waiting for a retry. */
  async function unfinished(): Promise<number> {
    // The periodic check's next run is a delayed job of the same queue.
    const jobs = await queue.getJobs(['wait', 'paused', 'prioritized', 'active', 'delayed']);
    return jobs.filter((job) => job.name === RewardsJob.RebuildSnapshot).length;
  }

  async function completedRebuilds(): Promise<number> {
    return (await queue.getJobs(['completed'])).filter((job) => job.name === RewardsJob.RebuildSnapshot).length;
  }

  /** Waits until no rebuild is waiting or running; listens before looking, so no completion slips between. */
  async function settled(): Promise<void> {
    for (;;) {
      const completion = nextRebuild(events);
      if ((await unfinished()) === 0) {
        completion.cancel();
        return;
      }
      await completion.done;
    }
  }

  it('runs one rebuild for a burst of 1,000 requests', async () => {
    await settled();
    const before = await completedRebuilds();
    // Paused, the worker cannot start the first request's job before the last request arrives.
    await queue.pause();
    await Promise.all(Array.from({ length: 1000 }, (_, i) => rebuilds.request('decision', null).then(() => i)));
    const waiting = (await queue.getJobs(['wait', 'paused'])).filter((job) => job.name === RewardsJob.RebuildSnapshot);
    expect(waiting).toHaveLength(1);
    await queue.resume();
    await waiting[0].waitUntilFinished(events, 20_000);
    await settled();
    expect((await completedRebuilds()) - before).toBe(1);
    expect(await unfinished()).toBe(0);
  });

  it('runs exactly one more rebuild for requests that arrive while one is running', async () => {
    await settled();
    const before = await completedRebuilds();
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
      const firstDone = nextRebuild(events);
      await holder.commitTransaction();
      await firstDone.done;
    } finally {
      if (holder.isTransactionActive) await holder.rollbackTransaction();
      await holder.release();
    }
    await settled();
    expect((await completedRebuilds()) - before).toBe(2);
    expect(await unfinished()).toBe(0);
  });

  it('names the miner of a decision made over HTTP once the rebuild it asked for has run', async () => {
    const task = await api.createTask({ metric_name: 'accuracy', metric_direction: 'maximize' });
    const submission = await api.pending(people.dave, task.id);
    const job = await api.leaseOf(people.alice, submission);
    const before = await completedRebuilds();
    expectStatus(await api.result(people.alice, job.job_id, { status: 'accepted', observed_metrics: { accuracy: 0.9 } }), 200);
    // The answer does not wait for the rebuild to be queued: wait for the snapshot that names the miner.
    type Snapshot = { competitions: { competition_id: string; miners: { miner_hotkey: string; score: number }[] }[] };
    const competitionOf = (snapshot: Snapshot) => snapshot.competitions.find((c) => c.competition_id === task.id);
    const stored = async (): Promise<string> => ((await h.app.get(DataSource).query('SELECT body FROM reward_snapshots')) as { body: string }[])[0].body;
    // Served as stored: compared in one probe, since a later rebuild may replace it between two reads.
    const { reply, body } = await until(
      'the snapshot names the miner',
      async () => ({ reply: await api.anonymous<Snapshot>('GET', '/api/v1/reward-snapshot'), body: await stored() }),
      ({ reply: r, body: b }) => r.status === 200 && r.text === b && (competitionOf(r.body)?.miners.length ?? 0) > 0,
    );
    expect((await completedRebuilds()) - before).toBeGreaterThanOrEqual(1);
    const competition = competitionOf(reply.body);
    // Accepted (+1) and the best (+1), both just now: 2 up to the decay of the seconds since.
    expect(competition?.miners.map((m) => m.miner_hotkey)).toEqual([people.dave.hotkey]);
    expect(competition?.miners[0].score).toBeCloseTo(2, 4);
    expect(reply.text).toBe(body);
  });

  describe('the periodic check', () => {
    const changes = async (): Promise<number> =>
      ((await h.db.dataSource.query('SELECT count(*)::int AS n FROM reward_snapshot_changes')) as { n: number }[])[0].n;

    it('rebuilds when a committed change is not in the snapshot (its request lost), and only then', async () => {
      await settled();
      const check = h.app.get(RewardsRebuildJob);
      await check.check({});
      expect(await changes()).toBe(0);
      // A write no rebuild was asked for: the snapshot's data changed in a transaction of its own.
      const task = await api.createTask({ metric_name: 'accuracy', metric_direction: 'maximize' });
      await settled();
      await h.db.dataSource.query(`UPDATE tasks SET title = 'Renamed behind the queue' WHERE id = $1`, [task.id]);
      expect(await changes()).toBe(1);

      const outcome = await check.check({});
      expect(outcome.stale).toBe('changed');
      expect(outcome.rebuilt).not.toBeNull();
      expect(await changes()).toBe(0);
      const served = await api.anonymous<{ competitions: { competition_id: string; title: string }[] }>('GET', '/api/v1/reward-snapshot');
      expect(served.body.competitions.find((c) => c.competition_id === task.id)?.title).toBe('Renamed behind the queue');
      expect(await check.check({})).toEqual({ stale: null, rebuilt: null });
    });

    it('counts only writes that touch accepted submissions: a submission stored or rejected changes nothing the snapshot reads', async () => {
      const task = await api.createTask({ metric_name: 'accuracy', metric_direction: 'maximize' });
      await settled();
      const check = h.app.get(RewardsRebuildJob);
      await check.check({});
      expect(await changes()).toBe(0);
      const [kept, rejected] = [await api.pending(people.dave, task.id), await api.pending(people.eve, task.id)];
      const decide = (id: string, status: string) =>
        h.db.dataSource.query(`UPDATE submissions SET status = $2, decided_at = now(), verified_metric_value = 0.5 WHERE id = $1`, [id, status]);
      await decide(rejected.id, 'rejected');
      expect(await changes()).toBe(0);
      await decide(kept.id, 'accepted');
      expect(await changes()).toBe(1);
      await check.check({});
      // Un-accepting and deleting an accepted result change the snapshot too.
      await decide(kept.id, 'rejected');
      expect(await changes()).toBe(1);
      await check.check({});
      await decide(kept.id, 'accepted');
      await check.check({});
      await h.db.dataSource.query(`DELETE FROM validator_jobs WHERE submission_id = $1`, [kept.id]);
      await h.db.dataSource.query(`DELETE FROM submissions WHERE id = $1`, [kept.id]);
      expect(await changes()).toBe(1);
    });

    it('rebuilds a snapshot older than SNAPSHOT_MAX_AGE_SECONDS without any change, so decay shows', async () => {
      await settled();
      const check = h.app.get(RewardsRebuildJob);
      await check.check({});
      await h.db.dataSource.query(`UPDATE reward_snapshots SET generated_at = generated_at - make_interval(secs => $1)`, [h.config.snapshotMaxAgeSeconds]);
      const [{ generated_at: old }] = (await h.db.dataSource.query('SELECT generated_at FROM reward_snapshots')) as { generated_at: Date }[];
      const outcome = await check.check({});
      expect(outcome.stale).toBe('aged');
      expect(new Date(outcome.rebuilt?.generated_at ?? 0).getTime()).toBeGreaterThan(old.getTime());
    });

    it('is a repeatable job of the rewards queue, every SNAPSHOT_CHECK_INTERVAL_SECONDS', async () => {
      await h.app.get(ScheduleKeeper).scheduled;
      const scheduler = await queue.getJobScheduler(SNAPSHOT_CHECK_SCHEDULER_ID);
      expect(scheduler).toMatchObject({ name: 'check-snapshot', every: h.config.snapshotCheckIntervalSeconds * 1000 });
    });
  });
});
