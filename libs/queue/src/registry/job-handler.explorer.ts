import { Injectable } from '@nestjs/common';
import { DecoratedMethods } from '@rcs/events';
import { OnJob } from './on-job.decorator';
import type { DiscoveredHandler } from './job-registry';

/** Finds every `@OnJob` method on the application's (singleton) providers. */
@Injectable()
export class JobHandlerExplorer {
  constructor(private readonly methods: DecoratedMethods) {}

  explore(): DiscoveredHandler[] {
    return this.methods.find(OnJob).map(({ meta, source, call }) => ({
      queue: meta.queue,
      name: meta.name,
      source,
      handle: (data, job) => call(data, job),
    }));
  }
}
