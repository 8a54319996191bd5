import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleInit,
} from '@nestjs/common';
import { ConnectionOptions, Job, RedisClient, Worker } from 'bullmq';
import { isHandlerReported, UndeclaredJobError } from '../errors';
import { QUEUE_MODULE_OPTIONS, type QueueModuleOptions } from '../queue.options';
import { queueKeyPrefix } from '../redis/cluster';
import { bullmqConnection, releaseBullmqConnection } from '../redis/redis';
import { JobHandlerExplorer } from '../registry/job-handler.explorer';
import { buildJobRegistry, JobRegistry } from '../registry/job-registry';

/**
 * How long one worker's graceful close may take before it is forced. During or after a Redis outage
 * BullMQ's close can wait forever on a connection parked in ioredis `reconnecting` (BullMQ #4656, #4585),
 * and a process told to stop must exit.
 */
export const WORKER_CLOSE_TIMEOUT_MS = 5000;

/** One BullMQ worker per configured queue, dispatching each job by name to its `@OnJob` handler. */
@Injectable()
export class JobWorkers implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Queue');
  private registry: JobRegistry = new Map();
  private workers: Worker[] = [];
  private readonly byQueue = new Map<string, Worker>();
  /** Cluster connections opened for the workers, which BullMQ does not close. */
  private connections: ConnectionOptions[] = [];

  constructor(
    @Inject(QUEUE_MODULE_OPTIONS) private readonly options: QueueModuleOptions,
    private readonly explorer: JobHandlerExplorer,
  ) {}

  // Checked at init, before any Redis connection: a bad registry fails the boot cleanly.
  onModuleInit(): void {
    this.registry = buildJobRegistry(this.options.queues, this.explorer.explore());
  }

  // Started only once every module is initialised, so handlers never see half-built services.
  onApplicationBootstrap(): void {
    for (const [queue, handlers] of this.registry) {
      const settings = this.options.queues[queue];
      const connection = bullmqConnection(this.options.redisUrl);
      this.connections.push(connection);
      const worker = new Worker(
        queue,
        async (job: Job) => {
          const handle = handlers.get(job.name);
          // A producer running other code (e.g. mid-deploy) may add a job this build does not know.
          if (!handle) throw new UndeclaredJobError(queue, job.name);
          return handle(job.data, job);
        },
        {
          connection,
          prefix: queueKeyPrefix(this.options.prefix ?? 'bull', queue),
          concurrency: settings.concurrency ?? 1,
          autorun: !settings.startPaused,
          ...(settings.lockDuration === undefined ? {} : { lockDuration: settings.lockDuration }),
          ...(settings.stalledInterval === undefined ? {} : { stalledInterval: settings.stalledInterval }),
          ...(settings.backoffStrategy === undefined ? {} : { settings: { backoffStrategy: settings.backoffStrategy } }),
        },
      );
      worker.on('failed', (job, error) => {
        const message = `Job ${queue}/${job?.name ?? '?'} (${job?.id ?? 'no id'}) failed: ${error.message}`;
        // A try that will be retried is the handler's to report; the last one is worth a warning here,
        // unless the handler said it already (a service waiting for another is one INFO line, docs/operations.md).
        if ((job && job.attemptsMade < (job.opts.attempts ?? 1)) || isHandlerReported(error)) this.logger.debug(message);
        else this.logger.warn(message);
      });
      worker.on('error', (error) => this.logger.error(`Worker ${queue}: ${error.message}`));
      this.workers.push(worker);
      this.byQueue.set(queue, worker);
    }
    this.logger.log(`Workers started for ${[...this.registry.keys()].join(', ') || 'no queues'}`);
  }

  /** Starts (or resumes) taking jobs of `queue`. */
  resume(queue: string): void {
    // BullMQ's resume() also starts a worker created with autorun off, or whose loop ended when it was paused.
    this.#worker(queue).resume();
  }

  /** Stops taking new jobs of `queue`; resolves once the jobs it is running have finished. */
  async pause(queue: string): Promise<void> {
    const worker = this.#worker(queue);
    if (worker.isRunning() && !worker.isPaused()) await worker.pause();
  }

  #worker(queue: string): Worker {
    const worker = this.byQueue.get(queue);
    if (!worker) throw new UndeclaredJobError(queue, '*');
    return worker;
  }

  // close() is memoised, so a later close(true) would only return the same stuck promise: forcing means
  // dropping both sockets (QueueBase.disconnect for the main one, the worker's blocking client), which
  // fails whatever the close was waiting on and lets it finish.
  async #closeWithin(worker: Worker, timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const closing = worker.close();
    const timedOut = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), timeoutMs);
    });
    try {
      if (!(await Promise.race([closing.then(() => false), timedOut]))) return;
    } finally {
      clearTimeout(timer);
    }
    this.logger.warn(`Worker ${worker.name}: not closed within ${timeoutMs} ms (Redis unreachable?); forcing its connections shut`);
    worker.on('error', () => undefined);
    // waitUntilReady() answers the blocking client; both promises settled at the worker's first connect
    // (one that never connected is already disconnected by close()).
    const sockets = await settledWithin(Promise.all([worker.client, worker.waitUntilReady()]), 1000);
    await Promise.all((sockets ?? []).map((socket) => forceEnd(socket)));
    await settledWithin(closing, timeoutMs);
  }

  /** Graceful: each worker stops taking jobs and waits for the ones it is running. */
  async beforeApplicationShutdown(): Promise<void> {
    const workers = this.workers;
    this.workers = [];
    this.byQueue.clear();
    if (workers.length > 0) this.logger.log(`Closing ${workers.length} worker(s); waiting for running jobs`);
    await Promise.all(workers.map((w) => this.#closeWithin(w, WORKER_CLOSE_TIMEOUT_MS)));
    // See JobQueue.onApplicationShutdown: late connection errors after close must not go unhandled.
    for (const w of workers) w.on('error', () => undefined);
    for (const connection of this.connections) releaseBullmqConnection(connection);
    this.connections = [];
  }
}

/** The value, or undefined when it rejects or takes longer than `ms`. */
async function settledWithin<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([work.catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Ends an ioredis client for good. disconnect() of a client waiting to reconnect (no socket) cancels the
 * retry but never emits 'end', which is what BullMQ's close waits for; one more connect attempt ends it
 * either way: refused, it closes as manually closed; accepted, it is disconnected on arrival.
 */
async function forceEnd(client: RedisClient): Promise<void> {
  if (client.status === 'end') return;
  const ended = new Promise<void>((resolve) => client.once('end', () => resolve()));
  client.disconnect();
  if (client.status === 'reconnecting') {
    client.once('ready', () => client.disconnect());
    client.connect().catch(() => undefined);
  }
  await settledWithin(ended, 1000);
}
