import { Injectable } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { OnEvent } from './on-event.decorator';

export interface DiscoveredEventHandler {
  name: string;
  /** `Provider.method`, for logs. */
  source: string;
  handle: (event: unknown) => unknown;
}

/** Finds every `@OnEvent` method on the application's (singleton) providers. */
@Injectable()
export class EventHandlerExplorer {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  explore(): DiscoveredEventHandler[] {
    const found: DiscoveredEventHandler[] = [];
    for (const wrapper of this.discovery.getProviders()) {
      if (!wrapper.isDependencyTreeStatic()) continue;
      const instance: unknown = wrapper.instance;
      if (instance === null || typeof instance !== 'object') continue;
      const methods = instance as Record<string, unknown>;
      for (const method of this.scanner.getAllMethodNames(Object.getPrototypeOf(instance) as object | null)) {
        const fn = methods[method];
        if (typeof fn !== 'function') continue;
        const name = this.reflector.get(OnEvent, fn);
        if (name === undefined) continue;
        found.push({
          name,
          source: `${instance.constructor.name}.${method}`,
          handle: (event) => (fn as (e: unknown) => unknown).call(instance, event),
        });
      }
    }
    return found;
  }
}
