import { DynamicModule, Inject, Injectable, Module, OnModuleInit, Type } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { EventBus } from './event-bus';
import { EventHandlerExplorer } from './event-handler.explorer';
import { DecoratedMethods } from './decorated-methods';

const EVENT_BUS = Symbol('EVENT_BUS');

/** Subscribes every `@OnEvent` method to the app's bus once all providers exist, before any is bootstrapped. */
@Injectable()
class EventSubscriptions implements OnModuleInit {
  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus<Record<string, unknown>>,
    private readonly explorer: EventHandlerExplorer,
  ) {}

  onModuleInit(): void {
    for (const handler of this.explorer.explore()) this.bus.on(handler.name, handler.handle);
  }
}

/**
 * Provides an app's bus (`XEvents extends EventBus<XEventMap>`) and subscribes to it, at init,
 * every `@OnEvent` method of the app's providers, whichever module declares them. One bus per app;
 * import it once (e.g. in the app's `EventsModule`) and re-export `EventBusModule` from there.
 */
@Module({})
export class EventBusModule {
  static forRoot<M extends object>(bus: Type<EventBus<M>>): DynamicModule {
    return {
      module: EventBusModule,
      imports: [DiscoveryModule],
      providers: [bus, { provide: EVENT_BUS, useExisting: bus }, DecoratedMethods, EventHandlerExplorer, EventSubscriptions],
      exports: [bus],
    };
  }
}
