import { Injectable, LoggerService, Module, Type } from '@nestjs/common';
import { INestApplicationContext } from '@nestjs/common/interfaces';
import { NestFactory } from '@nestjs/core';
import { createTestRedis, TestRedis } from '@rcs/testing';
import { Job, Queue } from 'bullmq';
import { JobFailedError, JobRegistryError, JobTimeoutError, UndeclaredJobError } from './errors';
import type { JobSpec } from './jobs/job-catalog';
import { JobQueue } from './jobs/job-queue.service';
import { JobWorkers } from './jobs/job-workers';
import { QueueModule } from './queue.module';
import type { QueueModuleOptions } from './queue.options';
import { queueKeyPrefix } from './redis/cluster';
import { redisOptionsFromUrl } from './redis/redis';
import { OnJob } from './registry/on-job.decorator';

enum TestQueue {
  Work = 'work',
}

enum WorkJob {
  Echo = 'echo',
  Fail = 'fail',
  Count = 'count',
  Slow = 'slow',
}

type TestJobs = {
  [TestQueue.Work]: {
    [WorkJob.Echo]: JobSpec<{ text: string }, { echoed: string }>;
    [WorkJob.Fail]: JobSpec<{ reason: string }, never>;
    [WorkJob.Count]: JobSpec<{ n: number }, number>;
    [WorkJob.Slow]: JobSpec<Record<string, never>, string>;
  };
};

class Deferred<T = void> {
  resolve!: (value: T) => void;
  readonly promise = new Promise<T>((resolve) => (this.resolve = resolve));
}

class HandlerRefused extends Error {}

/** What the handlers saw, shared by every app context of a test. */
class Probe {
  readonly counted: { n: number; jobId: string | undefined }[] = [];
  readonly slowStarted = new Deferred();
  readonly slowGate = new Deferred();
  slowFinished = false;

  record(n: number, job: Job): void {
    this.counted.push({ n, jobId: job.id });
  }
}

@Injectable()
class WorkHandlers {
  constructor(private readonly probe: Probe) {}

  @OnJob({ queue: TestQueue.Work, name: WorkJob.Echo })
  echo(data: { text: string }): { echoed: string } {
    return { echoed: data.text.toUpperCase() };
  }

  @OnJob({ queue: TestQueue.Work, name: WorkJob.Fail })
  fail(data: { reason: string }): never {
    throw new HandlerRefused(data.reason);
  }

  @OnJob({ queue: TestQueue.Work, name: WorkJob.Count })
  count(data: { n: number }, job: Job): number {
    this.probe.record(data.n, job);
    return data.n;
  }

  @OnJob({ queue: TestQueue.Work, name: WorkJob.Slow })
  async slow(): Promise<string> {
    this.probe.slowStarted.resolve();
    await this.probe.slowGate.promise;
    this.probe.slowFinished = true;
    return 'slow done';
  }
}

@Injectable()
class SecondEchoHandler {
  @OnJob({ queue: TestQueue.Work, name: WorkJob.Echo })
  echo(): string {
    return 'second';
  }
}

@Injectable()
class StrayHandler {
  @OnJob({ queue: TestQueue.Work, name: 'vacuum' })
  vacuum(): string {
    return 'vacuumed';
  }
}

function boot(
  options: QueueModuleOptions,
  providers: Type[],
  probe: Probe,
  logger: LoggerService | false = false,
): Promise<INestApplicationContext> {
  @Module({
    imports: [QueueModule.forRootAsync({ useFactory: () => options })],
    providers: [...providers, { provide: Probe, useValue: probe }],
  })
  class AppModule {}
  return NestFactory.createApplicationContext(AppModule, { logger, abortOnError: false });
}

describe('QueueModule against Redis', () => {
  let redis: TestRedis;
  let options: QueueModuleOptions;

  beforeAll(async () => {
    redis = await createTestRedis();
    options = {
      redisUrl: redis.url,
      prefix: redis.prefix,
      queues: { [TestQueue.Work]: { jobNames: Object.values(WorkJob), concurrency: 4 } },
    };
  });

  afterAll(async () => {
    await redis.cleanup();
  });

  describe('registry', () => {
    async function bootFailure(providers: Type[]): Promise<JobRegistryError> {
      const error: unknown = await boot(options, providers, new Probe()).then(
        async (app) => {
          await app.close();
          return null;
        },
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(JobRegistryError);
      return error as JobRegistryError;
    }

    it('refuses to start when a declared job has no handler', async () => {
      const error = await bootFailure([]);
      expect(error.problems.map((p) => [p.kind, p.name])).toEqual([
        ['missing_handler', 'echo'],
        ['missing_handler', 'fail'],
        ['missing_handler', 'count'],
        ['missing_handler', 'slow'],
      ]);
    });

    it('refuses to start when a job has two handlers', async () => {
      const error = await bootFailure([WorkHandlers, SecondEchoHandler]);
      expect(error.problems).toEqual([
        { kind: 'duplicate_handler', queue: 'work', name: 'echo', handlers: ['WorkHandlers.echo', 'SecondEchoHandler.echo'] },
      ]);
      expect(error.message).toContain('2 handlers for work/echo');
    });

    it('refuses to start when a handler names an undeclared job', async () => {
      const error = await bootFailure([WorkHandlers, StrayHandler]);
      expect(error.problems).toEqual([
        { kind: 'undeclared_job', queue: 'work', name: 'vacuum', handlers: ['StrayHandler.vacuum'] },
      ]);
    });
  });

  describe('a running app', () => {
    let probe: Probe;
    let first: INestApplicationContext;
    let second: INestApplicationContext;
    let jobs: JobQueue<TestJobs>;

    beforeAll(async () => {
      probe = new Probe();
      [first, second] = await Promise.all([
        boot(options, [WorkHandlers], probe),
        boot(options, [WorkHandlers], probe),
      ]);
      jobs = first.get<JobQueue<TestJobs>>(JobQueue);
    });

    afterAll(async () => {
      await Promise.all([first.close(), second.close()]);
    });

    it('returns the handler result to runAndWait', async () => {
      expect(await jobs.runAndWait(TestQueue.Work, WorkJob.Echo, { text: 'hello' }, 5000)).toEqual({ echoed: 'HELLO' });
    });

    it('surfaces the handler failure from runAndWait', async () => {
      const error: unknown = await jobs
        .runAndWait(TestQueue.Work, WorkJob.Fail, { reason: 'not today' }, 5000)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(JobFailedError);
      expect(error).toMatchObject({ queue: 'work', jobName: 'fail', reason: 'not today' });
    });

    it('handles each job exactly once across two workers', async () => {
      const range = Array.from({ length: 20 }, (_, n) => n);
      const results = await Promise.all(range.map((n) => jobs.runAndWait(TestQueue.Work, WorkJob.Count, { n }, 5000)));
      expect(results).toEqual(range);
      expect(probe.counted.map((c) => c.n).sort((x, y) => x - y)).toEqual(range);
      expect(new Set(probe.counted.map((c) => c.jobId)).size).toBe(20);
    });

    it('adds a job once per jobId', async () => {
      const before = probe.counted.length;
      const a = await jobs.add(TestQueue.Work, WorkJob.Count, { n: 100 }, { jobId: 'count-100' });
      const b = await jobs.add(TestQueue.Work, WorkJob.Count, { n: 101 }, { jobId: 'count-100' });
      expect(b.id).toBe(a.id);
      // Waiting on the same id twice: both see the single run's result.
      expect(await jobs.runAndWait(TestQueue.Work, WorkJob.Count, { n: 102 }, 5000, { jobId: 'count-100' })).toBe(100);
      expect(probe.counted.slice(before).map((c) => c.n)).toEqual([100]);
    });

    it('times out runAndWait without losing the job', async () => {
      const error: unknown = await jobs.runAndWait(TestQueue.Work, WorkJob.Slow, {}, 200).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(JobTimeoutError);
      expect(error).toMatchObject({ queue: 'work', jobName: 'slow', timeoutMs: 200 });
      await probe.slowStarted.promise;
      probe.slowGate.resolve();
    });

    it('refuses to produce an undeclared job', async () => {
      const untyped = jobs as unknown as JobQueue;
      await expect(untyped.add('work', 'vacuum', {})).rejects.toBeInstanceOf(UndeclaredJobError);
      await expect(untyped.add('elsewhere', 'echo', {})).rejects.toBeInstanceOf(UndeclaredJobError);
    });

    it('upserts a repeatable job scheduler idempotently', async () => {
      const queue = jobs.queue(TestQueue.Work);
      await jobs.upsertScheduler(TestQueue.Work, 'echo-hourly', { every: 3_600_000 }, { name: WorkJob.Echo, data: { text: 'tick' } });
      await jobs.upsertScheduler(TestQueue.Work, 'echo-hourly', { every: 3_600_000 }, { name: WorkJob.Echo, data: { text: 'tock' } });
      const schedulers = await queue.getJobSchedulers();
      expect(schedulers.map((s) => [s.key, s.every, s.template?.data])).toEqual([['echo-hourly', 3_600_000, { text: 'tock' }]]);
      expect(await jobs.removeScheduler(TestQueue.Work, 'echo-hourly')).toBe(true);
      expect(await queue.getJobSchedulers()).toEqual([]);
    });
  });

  describe('shutdown', () => {
    it('waits for running jobs before closing the workers', async () => {
      const probe = new Probe();
      // Releases the job only once the workers are closing, so a close that did not wait would leave it active.
      const logger: LoggerService = {
        log: (message: unknown) => {
          if (String(message).startsWith('Closing 1 worker(s)')) probe.slowGate.resolve();
        },
        error: () => undefined,
        warn: () => undefined,
      };
      const app = await boot(options, [WorkHandlers], probe, logger);
      const job = await app.get<JobQueue<TestJobs>>(JobQueue).add(TestQueue.Work, WorkJob.Slow, {});
      await probe.slowStarted.promise;
      await app.close();
      expect(probe.slowFinished).toBe(true);

      const inspect = new Queue(TestQueue.Work, { connection: redisOptionsFromUrl(redis.url), prefix: queueKeyPrefix(redis.prefix, TestQueue.Work) });
      try {
        const stored = await inspect.getJob(job.id as string);
        expect(await stored?.getState()).toBe('completed');
        expect(stored?.returnvalue).toBe('slow done');
      } finally {
        await inspect.close();
      }
    });
  });

  describe('a worker that starts paused', () => {
    it('takes no job until resumed, and takes jobs again when resumed after a pause', async () => {
      const paused = { ...options, prefix: `${redis.prefix}:paused`, queues: { [TestQueue.Work]: { ...options.queues[TestQueue.Work], startPaused: true } } };
      const running = { ...paused, queues: options.queues };
      const [standbyProbe, activeProbe] = [new Probe(), new Probe()];
      const standby = await boot(paused, [WorkHandlers], standbyProbe);
      const active = await boot(running, [WorkHandlers], activeProbe);
      const jobs = active.get<JobQueue<TestJobs>>(JobQueue);
      try {
        // With both apps up, every job goes to the running worker: the paused one competes for none.
        for (const n of [1, 2, 3, 4, 5]) expect(await jobs.runAndWait(TestQueue.Work, WorkJob.Count, { n }, 5000)).toBe(n);
        expect(standbyProbe.counted).toEqual([]);
        expect(activeProbe.counted.map((c) => c.n)).toEqual([1, 2, 3, 4, 5]);

        await active.close();
        standby.get(JobWorkers).resume(TestQueue.Work);
        const standbyJobs = standby.get<JobQueue<TestJobs>>(JobQueue);
        expect(await standbyJobs.runAndWait(TestQueue.Work, WorkJob.Count, { n: 6 }, 5000)).toBe(6);
        expect(standbyProbe.counted.map((c) => c.n)).toEqual([6]);

        // Paused again, then resumed: the loop that ended on pause starts again.
        await standby.get(JobWorkers).pause(TestQueue.Work);
        standby.get(JobWorkers).resume(TestQueue.Work);
        expect(await standbyJobs.runAndWait(TestQueue.Work, WorkJob.Count, { n: 7 }, 5000)).toBe(7);
      } finally {
        await Promise.all([standby.close(), active.close()]);
      }
    });
  });
});
