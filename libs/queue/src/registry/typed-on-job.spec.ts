import { Reflector } from '@nestjs/core';
import type { JobSpec } from '../jobs/job-catalog';
import { OnJob } from './on-job.decorator';
import { onJobOf } from './typed-on-job';

type Catalog = {
  'q.one': {
    add: JobSpec<{ a: number; b: number }, { sum: number }>;
    ping: JobSpec<Record<string, never>, 'pong'>;
  };
};

const OnCatalogJob = onJobOf<Catalog>();

class Handlers {
  @OnCatalogJob('q.one', 'add')
  async add(data: { a: number; b: number }): Promise<{ sum: number }> {
    return { sum: data.a + data.b };
  }

  @OnCatalogJob('q.one', 'ping')
  async ping(): Promise<'pong'> {
    return 'pong';
  }
}

// What must not compile (checked by the typecheck target, which includes this file):
class Mismatched {
  // @ts-expect-error the data is not the job's
  @OnCatalogJob('q.one', 'add')
  async wrongData(data: { a: string }): Promise<{ sum: number }> {
    return { sum: data.a.length };
  }

  // @ts-expect-error the result is not the job's
  @OnCatalogJob('q.one', 'ping')
  async wrongResult(): Promise<'ping'> {
    return 'ping';
  }

  // @ts-expect-error no such job in the catalog
  @OnCatalogJob('q.one', 'pong')
  async unknownJob(): Promise<'pong'> {
    return 'pong';
  }
}

describe('onJobOf<Catalog>()', () => {
  it('marks the method as the handler of that job, as @OnJob does', () => {
    const reflector = new Reflector();
    expect(reflector.get(OnJob, Handlers.prototype.add)).toEqual({ queue: 'q.one', name: 'add' });
    expect(reflector.get(OnJob, Handlers.prototype.ping)).toEqual({ queue: 'q.one', name: 'ping' });
    expect(reflector.get(OnJob, Mismatched.prototype.wrongData)).toEqual({ queue: 'q.one', name: 'add' });
  });
});
