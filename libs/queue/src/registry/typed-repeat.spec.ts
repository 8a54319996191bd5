import { Injectable, Module } from '@nestjs/common';
import { DiscoveryModule, NestFactory, Reflector } from '@nestjs/core';
import { DecoratedMethods } from '@rcs/events';
import { ScheduleDeclarationError } from '../errors';
import type { JobSpec } from '../jobs/job-catalog';
import { declaredSchedules } from '../jobs/schedule-keeper';
import { OnJob } from './on-job.decorator';
import { Repeat } from './repeat.decorator';
import { onJobOf } from './typed-on-job';
import { repeatOf } from './typed-repeat';

type Catalog = {
  'q.one': {
    sweep: JobSpec<Record<string, never>, number>;
    add: JobSpec<{ a: number; b: number }, { sum: number }>;
  };
  'q.two': { check: JobSpec<Record<string, never>, 'ok'> };
};

interface Config {
  sweepSeconds: number;
  nested: { checkSeconds: number };
}

const OnCatalogJob = onJobOf<Catalog>();
const RepeatCatalogJob = repeatOf<Catalog, Config>();

@Injectable()
class Handlers {
  @OnCatalogJob('q.one', 'sweep')
  @RepeatCatalogJob({ schedulerId: 'sweep-every', everySeconds: (config) => config.sweepSeconds })
  async sweep(): Promise<number> {
    return 0;
  }

  @OnCatalogJob('q.one', 'add')
  async add(data: { a: number; b: number }): Promise<{ sum: number }> {
    return { sum: data.a + data.b };
  }

  @OnCatalogJob('q.two', 'check')
  @RepeatCatalogJob({ schedulerId: 'check-every', everySeconds: (config) => config.nested.checkSeconds })
  async check(): Promise<'ok'> {
    return 'ok';
  }
}

// What must not compile (checked by the typecheck target, which includes this file):
class Mismatched {
  // @ts-expect-error a schedule adds `{}`, which is not this job's data
  @RepeatCatalogJob({ schedulerId: 'add-every', everySeconds: () => 1 })
  async add(data: { a: number; b: number }): Promise<{ sum: number }> {
    return { sum: data.a + data.b };
  }

  // @ts-expect-error no such setting in the config
  @RepeatCatalogJob({ schedulerId: 'sweep-every', everySeconds: (config) => config.missingSeconds })
  async sweep(): Promise<number> {
    return 0;
  }
}

async function schedulesOf(...providers: (new (...args: never[]) => object)[]) {
  @Module({ imports: [DiscoveryModule], providers: [DecoratedMethods, ...providers] })
  class AppModule {}
  const app = await NestFactory.createApplicationContext(AppModule, { logger: false });
  try {
    return declaredSchedules(app.get(DecoratedMethods), { sweepSeconds: 30, nested: { checkSeconds: 5 } } satisfies Config);
  } finally {
    await app.close();
  }
}

describe('repeatOf<Catalog, Config>()', () => {
  it('records the schedule on the method, its interval read from the config', () => {
    const meta = new Reflector().get(Repeat, Handlers.prototype.sweep);
    expect(meta.schedulerId).toBe('sweep-every');
    expect(meta.everySeconds({ sweepSeconds: 30, nested: { checkSeconds: 5 } })).toBe(30);
    expect(new Reflector().get(Repeat, Handlers.prototype.add)).toBeUndefined();
    expect(new Reflector().get(Repeat, Mismatched.prototype.add)?.schedulerId).toBe('add-every');
  });
});

describe('declaredSchedules', () => {
  it('finds each schedule with the queue and job of its @OnJob handler', async () => {
    expect(await schedulesOf(Handlers)).toEqual([
      { queue: 'q.one', name: 'sweep', schedulerId: 'sweep-every', everySeconds: 30, source: 'Handlers.sweep' },
      { queue: 'q.two', name: 'check', schedulerId: 'check-every', everySeconds: 5, source: 'Handlers.check' },
    ]);
  });

  it('refuses a schedule on a method that handles no job, and two schedules under one id', async () => {
    @Injectable()
    class Stray {
      @Repeat({ schedulerId: 'stray', everySeconds: () => 1 })
      tick(): number {
        return 1;
      }
    }

    @Injectable()
    class Twin {
      @OnJob({ queue: 'q.one', name: 'sweep' })
      @Repeat({ schedulerId: 'sweep-every', everySeconds: () => 1 })
      sweep(): number {
        return 1;
      }
    }

    const error: unknown = await schedulesOf(Handlers, Stray, Twin).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ScheduleDeclarationError);
    expect((error as ScheduleDeclarationError).problems).toEqual([
      'Stray.tick has a @Repeat schedule but no @OnJob',
      'Handlers.sweep and Twin.sweep both declare the schedule q.one/sweep-every',
    ]);
  });
});
