import { Injectable } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { OnJob } from './on-job.decorator';
import type { DiscoveredHandler } from './job-registry';

/** Finds every `@OnJob` method on the application's (singleton) providers. */
@Injectable()
export class JobHandlerExplorer {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  explore(): DiscoveredHandler[] {
    const found: DiscoveredHandler[] = [];
    for (const wrapper of this.discovery.getProviders()) {
      if (!wrapper.isDependencyTreeStatic()) continue;
      const instance: unknown = wrapper.instance;
      if (instance === null || typeof instance !== 'object') continue;
      const methods = instance as Record<string, unknown>;
      for (const method of this.scanner.getAllMethodNames(Object.getPrototypeOf(instance) as object | null)) {
        const fn = methods[method];
        if (typeof fn !== 'function') continue;
        const ref = this.reflector.get(OnJob, fn);
        if (!ref) continue;
        found.push({
          queue: ref.queue,
          name: ref.name,
          source: `${instance.constructor.name}.${method}`,
          handle: (data, job) => (fn as (d: unknown, j: unknown) => unknown).call(instance, data, job),
        });
      }
    }
    return found;
  }
}
