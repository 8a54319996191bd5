import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { startRedisServer, type RedisServer } from '@rcs/testing';
import { setTimeout as delay } from 'node:timers/promises';
import { QueueModule } from '../queue.module';
import type { QueueModuleOptions } from '../queue.options';
import { OnJob } from '../registry/on-job.decorator';
import { JobQueue } from './job-queue.service';
import { WORKER_CLOSE_TIMEOUT_MS } from './job-workers';

@Injectable()
class EchoHandler {
  @OnJob({ queue: 'work', name: 'echo' })
  echo(data: { text: string }): string {
    return data.text;
  }
}

function boot(options: QueueModuleOptions) {
  @Module({ imports: [QueueModule.forRootAsync({ useFactory: () => options })], providers: [EchoHandler] })
  class AppModule {}
  return NestFactory.createApplicationContext(AppModule, { logger: false, abortOnError: false });
}

// Runs against a Redis of its own, stopped and started again: never the machine's shared one.
describe('JobWorkers during a Redis outage', () => {
  let redis: RedisServer;
  let options: QueueModuleOptions;

  beforeEach(async () => {
    redis = await startRedisServer();
    options = { redisUrl: redis.url, prefix: 'outage', queues: { work: { jobNames: ['echo'] } } };
  });

  afterEach(async () => {
    await redis.destroy();
  });

  it('closes within its bound while Redis is down', async () => {
    const app = await boot(options);
    const jobs = app.get(JobQueue);
    expect(await jobs.runAndWait('work', 'echo', { text: 'before' }, 5000)).toBe('before');
    await redis.stop();

    const started = Date.now();
    await app.close();
    expect(Date.now() - started).toBeLessThan(WORKER_CLOSE_TIMEOUT_MS + 1000);
  }, 20_000);

  it('closes within its bound after Redis went down and came back', async () => {
    const app = await boot(options);
    const jobs = app.get(JobQueue);
    expect(await jobs.runAndWait('work', 'echo', { text: 'before' }, 5000)).toBe('before');
    await redis.stop();
    await redis.start();

    const started = Date.now();
    await app.close();
    expect(Date.now() - started).toBeLessThan(WORKER_CLOSE_TIMEOUT_MS + 1000);
  }, 20_000);

  it('takes jobs again once Redis is back after an outage longer than the worker blocks', async () => {
    const app = await boot(options);
    try {
      const jobs = app.get(JobQueue);
      expect(await jobs.runAndWait('work', 'echo', { text: 'before' }, 5000)).toBe('before');
      await redis.stop();
      // The condition under test, not synchronisation: down past BullMQ's drainDelay (5 s) + its 1 s block watchdog.
      await delay(7000);
      await redis.start();

      expect(await jobs.runAndWait('work', 'echo', { text: 'after' }, 10_000)).toBe('after');
    } finally {
      await app.close();
    }
  }, 40_000);
});
