import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { ConnectionOptions, Job, JobSchedulerTemplateOptions, JobsOptions, Queue, QueueEvents, RepeatOptions } from 'bullmq';
import { JobFailedError, JobTimeoutError, UndeclaredJobError } from '../errors';
import { RedisUnavailableError } from '../redis/connection-errors';
import { QUEUE_MODULE_OPTIONS, type QueueModuleOptions, RETENTION } from '../queue.options';
import { queueKeyPrefix } from '../redis/cluster';
import { bullmqConnection, redisReady, RedisReadiness, releaseBullmqConnection } from '../redis/redis';
import type { JobCatalog, JobDataOf, JobNameOf, JobResultOf, QueueOf } from './job-catalog';

/** How long `runAndWait` lets Redis take a job before it reports an outage. */
export const QUEUE_REACH_MS = 3000;

/** `promise`, or the error of `onTimeout` once `ms` have passed (the promise itself runs on). */
async function withDeadline<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  // A late failure of the abandoned promise is the outage already reported.
  promise.catch(() => undefined);
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Produces jobs onto the configured queues. Inject it typed by the app's catalog,
 * `JobQueue<CoordinatorJobs>`, to have queue names, job names, payloads and results checked.
 */
@Injectable()
export class JobQueue<C extends JobCatalog = JobCatalog> implements OnApplicationShutdown {
  private readonly queues = new Map<string, Queue>();
  private readonly events = new Map<string, Promise<QueueEvents>>();
  /** Cluster connections opened for the queues and listeners, which BullMQ does not close. */
  private connections: ConnectionOptions[] = [];
  private readonly logger = new Logger('Queue');

  constructor(@Inject(QUEUE_MODULE_OPTIONS) private readonly options: QueueModuleOptions) {}

  /** Adds a job; a `jobId` already present (waiting, running or retained) adds nothing and returns that job. */
  async add<Q extends QueueOf<C>, N extends JobNameOf<C, Q>>(
    queue: Q,
    name: N,
    data: JobDataOf<C, Q, N>,
    opts?: JobsOptions,
  ): Promise<Job<JobDataOf<C, Q, N>, JobResultOf<C, Q, N>, N>> {
    return (await this.queue(queue, name).add(name, data, opts)) as Job<JobDataOf<C, Q, N>, JobResultOf<C, Q, N>, N>;
  }

  /**
   * Adds a job and waits for its handler's result. Throws `JobFailedError` with the handler's
   * message, or `JobTimeoutError` (the job itself is not cancelled and may still run), or
   * `RedisUnavailableError` when the job is not queued within `QUEUE_REACH_MS` (it may still be
   * queued once Redis answers again).
   */
  async runAndWait<Q extends QueueOf<C>, N extends JobNameOf<C, Q>>(
    queue: Q,
    name: N,
    data: JobDataOf<C, Q, N>,
    timeoutMs: number,
    opts?: JobsOptions,
  ): Promise<JobResultOf<C, Q, N>> {
    // A caller waits for the handler, never for Redis: a job that cannot be queued soon is an outage.
    const { events, job } = await withDeadline(
      (async () => ({ events: await this.queueEvents(queue), job: await this.add(queue, name, data, opts) }))(),
      QUEUE_REACH_MS,
      () => new RedisUnavailableError(`queue ${queue} did not take job ${name} within ${QUEUE_REACH_MS} ms`),
    );
    try {
      return await job.waitUntilFinished(events, timeoutMs);
    } catch (error) {
      const finished = job.id === undefined ? undefined : await this.queue(queue, name).getJob(job.id);
      if (finished && (await finished.isFailed())) {
        throw new JobFailedError(queue, name, job.id, finished.failedReason || (error as Error).message);
      }
      throw new JobTimeoutError(queue, name, job.id, timeoutMs);
    }
  }

  /** Creates or updates a repeatable job (BullMQ job scheduler) identified by `schedulerId`. */
  async upsertScheduler<Q extends QueueOf<C>, N extends JobNameOf<C, Q>>(
    queue: Q,
    schedulerId: string,
    repeat: Omit<RepeatOptions, 'key'>,
    job: { name: N; data: JobDataOf<C, Q, N>; opts?: JobSchedulerTemplateOptions },
  ): Promise<void> {
    await this.queue(queue, job.name).upsertJobScheduler(schedulerId, repeat, job);
  }

  async removeScheduler(queue: QueueOf<C>, schedulerId: string): Promise<boolean> {
    return this.queue(queue).removeJobScheduler(schedulerId);
  }

  /** Whether Redis answers on `queue`'s own connection within `timeoutMs`, for /readyz of an app whose Redis is its queues'. */
  ready(queue: QueueOf<C>, timeoutMs?: number): Promise<RedisReadiness> {
    // BullMQ's client interface has no PING; INFO is a round trip on the same connection.
    const connection = this.queue(queue).client.then((client) => ({ ping: () => client.info().then(() => 'PONG') }));
    return redisReady(connection, timeoutMs);
  }

  /** Every queue this app declares (metrics read their depth). */
  get queueNames(): string[] {
    return Object.keys(this.options.queues);
  }

  /** The underlying BullMQ queue, for inspection (counts, jobs) in operator tools and tests. */
  queue(queue: string, jobName?: string): Queue {
    const settings = this.options.queues[queue];
    if (!settings || (jobName !== undefined && !settings.jobNames.includes(jobName))) {
      throw new UndeclaredJobError(queue, jobName ?? '*');
    }
    let created = this.queues.get(queue);
    if (!created) {
      const connection = bullmqConnection(this.options.redisUrl);
      created = new Queue(queue, {
        connection,
        prefix: queueKeyPrefix(this.options.prefix ?? 'bull', queue),
        defaultJobOptions: { ...RETENTION, ...settings.defaultJobOptions },
      });
      // Every pending runAndWait holds one 'closing' listener on the queue.
      created.setMaxListeners(0);
      created.on('error', (error) => this.logger.warn(`Queue ${queue}: ${error.message}`));
      this.connections.push(connection);
      this.queues.set(queue, created);
    }
    return created;
  }

  // One listener connection per queue, opened on the first wait and ready before any job is added.
  private queueEvents(queue: string): Promise<QueueEvents> {
    let events = this.events.get(queue);
    if (!events) {
      const connection = bullmqConnection(this.options.redisUrl);
      this.connections.push(connection);
      const created = new QueueEvents(queue, {
        connection,
        prefix: queueKeyPrefix(this.options.prefix ?? 'bull', queue),
      });
      created.on('error', (error) => this.logger.warn(`Queue events ${queue}: ${error.message}`));
      events = created.waitUntilReady().then(() => created);
      this.events.set(queue, events);
    }
    return events;
  }

  async onApplicationShutdown(): Promise<void> {
    const events = await Promise.all(this.events.values());
    const queues = [...this.queues.values()];
    await Promise.all([...events.map((e) => e.close()), ...queues.map((q) => q.close())]);
    // close() drops every listener; a connect attempt still in flight (Redis down) would then emit an
    // unhandled 'error' after shutdown.
    for (const e of events) e.on('error', () => undefined);
    for (const q of queues) q.on('error', () => undefined);
    this.events.clear();
    this.queues.clear();
    for (const connection of this.connections) releaseBullmqConnection(connection);
    this.connections = [];
  }
}
