import { Injectable } from '@nestjs/common';
import { DecoratedMethods } from './decorated-methods';
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
  constructor(private readonly methods: DecoratedMethods) {}

  explore(): DiscoveredEventHandler[] {
    return this.methods.find(OnEvent).map(({ meta, source, call }) => ({ name: meta, source, handle: (event) => call(event) }));
  }
}
