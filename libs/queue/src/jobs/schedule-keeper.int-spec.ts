import { Inject, Injectable, Module } from '@nestjs/common';
import { DiscoveryModule, NestFactory } from '@nestjs/core';
import { DecoratedMethods } from '@rcs/events';
import { createTestRedis, TestRedis } from '@rcs/testing';
import { QueueModule } from '../queue.module';
import { OnJob } from '../registry/on-job.decorator';
import { Repeat } from '../registry/repeat.decorator';
import type { JobSpec } from './job-catalog';
import { JobQueue } from './job-queue.service';
import { ScheduleKeeperOf } from './schedule-keeper';

type Jobs = { sweeps: { sweep: JobSpec<Record<string, never>, number> } };
const SWEEP_SECONDS = Symbol('sweep seconds');

@Injectable()
class Sweeper {
  @OnJob({ queue: 'sweeps', name: 'sweep' })
  @Repeat({ schedulerId: 'sweep-hourly', everySeconds: (config) => (config as { sweepSeconds: number }).sweepSeconds })
  sweep(): number {
    return 0;
  }
}

@Injectable()
class Keeper extends ScheduleKeeperOf<Jobs> {
  constructor(jobs: JobQueue<Jobs>, methods: DecoratedMethods, @Inject(SWEEP_SECONDS) sweepSeconds: number) {
    super(jobs, methods, { sweepSeconds }, 3600);
  }
}

function appOn(redis: TestRedis) {
  const queue = QueueModule.forRootAsync({ useFactory: () => ({ redisUrl: redis.url, prefix: redis.prefix, queues: { sweeps: { jobNames: ['sweep'] } } }) });
  @Module({ imports: [DiscoveryModule, queue], providers: [{ provide: SWEEP_SECONDS, useValue: 3600 }, DecoratedMethods, Keeper, Sweeper] })
  class AppModule {}
  return NestFactory.createApplicationContext(AppModule, { logger: false });
}

it('ScheduleKeeperOf stores each @Repeat schedule at boot and re-adds one Redis lost', async () => {
  const redis = await createTestRedis();
  const app = await appOn(redis);
  try {
    const keeper = app.get(Keeper);
    await keeper.scheduled;
    const queue = app.get<JobQueue<Jobs>>(JobQueue).queue('sweeps');
    expect(await queue.getJobScheduler('sweep-hourly')).toMatchObject({ key: 'sweep-hourly', name: 'sweep', every: 3_600_000 });
    expect(await keeper.restoreMissing()).toBe(0);

    await queue.removeJobScheduler('sweep-hourly');
    expect(await keeper.restoreMissing()).toBe(1);
    expect(await queue.getJobScheduler('sweep-hourly')).toMatchObject({ key: 'sweep-hourly', name: 'sweep', every: 3_600_000 });
  } finally {
    await app.close();
    await redis.cleanup();
  }
});
