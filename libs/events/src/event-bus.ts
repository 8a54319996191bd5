import { Logger } from '@nestjs/common';

/** What a handler of event `E` receives; it runs synchronously and must not wait on anything. */
export type EventHandler<E> = (event: E) => void;

/** The names of an app's event map (`interface XEventMap { 'epoch.published': EpochPublished; … }`). */
export type EventNameOf<M extends object> = keyof M & string;

/**
 * An app's in-process domain event bus, typed by its event map: `@Injectable() export class
 * XEvents extends EventBus<XEventMap> {}`. An event is emitted only after the transaction that made
 * it has committed; its handlers run synchronously, in registration order, and must not wait (a
 * response never waits on a queue); one that throws is logged and never reaches the emitter, whose
 * change has already committed. Handlers are `@OnEvent` methods subscribed at boot by `EventBusModule`.
 */
export class EventBus<M extends object> {
  // Named after the app's subclass (e.g. `DomainEvents`), so the log says whose handler failed.
  private readonly logger = new Logger(this.constructor.name);
  private readonly handlers = new Map<EventNameOf<M>, EventHandler<never>[]>();

  on<N extends EventNameOf<M>>(name: N, handler: EventHandler<M[N]>): void {
    this.handlers.set(name, [...(this.handlers.get(name) ?? []), handler as EventHandler<never>]);
  }

  emit<N extends EventNameOf<M>>(name: N, event: M[N]): void {
    for (const handler of (this.handlers.get(name) ?? []) as EventHandler<M[N]>[]) {
      try {
        const returned: unknown = handler(event);
        // A handler that waits despite its type: its failure is logged too, never left unhandled.
        if (isThenable(returned)) returned.then(undefined, (error: unknown) => this.failed(name, error));
      } catch (error) {
        this.failed(name, error);
      }
    }
  }

  private failed(name: string, error: unknown): void {
    this.logger.error(`A ${name} handler failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
